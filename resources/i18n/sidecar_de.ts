<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Activity</name>
    <message>
        <source>Sidecar — Paused: new jobs wait for Resume all</source>
        <extracomment>Jobs with work left to run (a job waiting for review or finished has none).</extracomment>
        <translation>Sidecar — Pausiert: neue Aufträge warten auf „Alle fortsetzen“</translation>
    </message>
    <message>
        <source>Sidecar — Paused: {done} of {total} files done</source>
        <translation>Sidecar — Pausiert: {done} von {total} Dateien fertig</translation>
    </message>
    <message>
        <source>Sidecar — {done} of {total} files, working on {name}</source>
        <translation>Sidecar — {done} von {total} Dateien, arbeitet an {name}</translation>
    </message>
    <message>
        <source>Sidecar — {done} of {total} files, starting</source>
        <translation>Sidecar — {done} von {total} Dateien, startet</translation>
    </message>
    <message>
        <source>Sidecar — %n job(s) paused</source>
        <translation>Sidecar — pausierte Aufträge: %n</translation>
    </message>
    <message>
        <source>Sidecar — Idle</source>
        <translation>Sidecar — Untätig</translation>
    </message>
</context>
<context>
    <name>Code</name>
    <message>
        <source>Install a translation model in Settings → Models (or `sidecar models`), or set an OpenAI-compatible translation server in Settings → Output; then choose Translate again on the job (or `sidecar translate-again`): the stored transcript is reused, only the translation runs.</source>
        <translation>Installieren Sie ein Übersetzungsmodell unter Einstellungen → Modelle (oder `sidecar models`) oder tragen Sie unter Einstellungen → Ausgabe einen OpenAI-kompatiblen Übersetzungsserver ein; wählen Sie dann beim Auftrag „Erneut übersetzen“ (oder `sidecar translate-again`): das gespeicherte Transkript wird wiederverwendet, nur die Übersetzung läuft.</translation>
    </message>
    <message>
        <source>Sidecar retries it by itself; if it keeps failing, use Retry item later.</source>
        <translation>Sidecar versucht es selbst erneut; schlägt es weiter fehl, nutzen Sie später „Eintrag wiederholen“.</translation>
    </message>
    <message>
        <source>This is a bug in Sidecar: retry the item, and if it fails again send the log (Log tab) with a report.</source>
        <translation>Das ist ein Fehler in Sidecar: wiederholen Sie den Eintrag, und schlägt er erneut fehl, senden Sie das Protokoll (Reiter Protokoll) mit einer Meldung.</translation>
    </message>
    <message>
        <source>What to do: {advice}</source>
        <translation>Was zu tun ist: {advice}</translation>
    </message>
    <message>
        <source>{count} of {cues} lines kept their original text: {lines}</source>
        <translation>{count} von {cues} Zeilen behielten ihren Originaltext: {lines}</translation>
    </message>
    <message>
        <source>Lines: {lines}</source>
        <translation>Zeilen: {lines}</translation>
    </message>
    <message>
        <source>waiting for the {pair} translator (install {install})</source>
        <translation>wartet auf den Übersetzer {pair} (installieren: {install})</translation>
    </message>
    <message>
        <source>came back untranslated</source>
        <extracomment>Why a line kept its original text (the reasons of app/media/translation_quality.py), as a person reads them.</extracomment>
        <translation>kam unübersetzt zurück</translation>
    </message>
    <message>
        <source>in another language</source>
        <translation>in einer anderen Sprache</translation>
    </message>
    <message>
        <source>says something else</source>
        <translation>sagt etwas anderes</translation>
    </message>
    <message>
        <source>fits another line</source>
        <translation>passt zu einer anderen Zeile</translation>
    </message>
    <message>
        <source>repeats another line</source>
        <translation>wiederholt eine andere Zeile</translation>
    </message>
    <message>
        <source>a glossary term not as given</source>
        <translation>ein Glossarbegriff nicht wie angegeben</translation>
    </message>
    <message>
        <source>no answer for it</source>
        <translation>keine Antwort darauf</translation>
    </message>
    <message>
        <source>repeats itself</source>
        <translation>wiederholt sich selbst</translation>
    </message>
    <message>
        <source>partly left untranslated</source>
        <translation>teilweise unübersetzt</translation>
    </message>
    <message>
        <source>The translation server {server} could not be reached, after several tries; the transcript was written, the translation was not.</source>
        <translation>Der Übersetzungsserver {server} war auch nach mehreren Versuchen nicht erreichbar; das Transkript wurde geschrieben, die Übersetzung nicht.</translation>
    </message>
    <message>
        <source>The file cannot be read as media.</source>
        <translation>Die Datei lässt sich nicht als Medium lesen.</translation>
    </message>
    <message>
        <source>Check that it plays in a media player; re-encode or replace it, then retry the item.</source>
        <translation>Prüfen Sie, ob sie in einem Mediaplayer abspielt; kodieren Sie sie neu oder ersetzen Sie sie, dann wiederholen Sie den Eintrag.</translation>
    </message>
    <message>
        <source>The video has no sound track, so there is no speech to subtitle.</source>
        <translation>Das Video hat keine Tonspur, also gibt es keine Sprache zu untertiteln.</translation>
    </message>
    <message>
        <source>Nothing to do unless the wrong file was added.</source>
        <translation>Nichts zu tun, außer es wurde die falsche Datei hinzugefügt.</translation>
    </message>
    <message>
        <source>The file was moved or deleted before Sidecar finished it.</source>
        <translation>Die Datei wurde verschoben oder gelöscht, bevor Sidecar sie fertig bearbeitet hatte.</translation>
    </message>
    <message>
        <source>Put it back and retry the item, or add its new folder.</source>
        <translation>Legen Sie sie zurück und wiederholen Sie den Eintrag, oder fügen Sie ihren neuen Ordner hinzu.</translation>
    </message>
    <message>
        <source>The folder is gone (moved, deleted or on a drive that is not connected).</source>
        <translation>Der Ordner ist weg (verschoben, gelöscht oder auf einem nicht angeschlossenen Laufwerk).</translation>
    </message>
    <message>
        <source>Reconnect the drive or restore the folder, then resume or add it again.</source>
        <translation>Schließen Sie das Laufwerk an oder stellen Sie den Ordner wieder her, dann setzen Sie fort oder fügen ihn erneut hinzu.</translation>
    </message>
    <message>
        <source>The image has more pixels than Sidecar decodes.</source>
        <translation>Das Bild hat mehr Pixel, als Sidecar dekodiert.</translation>
    </message>
    <message>
        <source>Scale it down if it should be searchable; nothing else is affected.</source>
        <translation>Verkleinern Sie es, wenn es durchsuchbar sein soll; sonst ist nichts betroffen.</translation>
    </message>
    <message>
        <source>No pipeline of this Sidecar handles this kind of file.</source>
        <translation>Keine Verarbeitung dieses Sidecar kann diese Art Datei bearbeiten.</translation>
    </message>
    <message>
        <source>The file changed while Sidecar worked on it, so nothing was written.</source>
        <translation>Die Datei änderte sich, während Sidecar daran arbeitete, daher wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>Add the folder again once the file stops changing.</source>
        <translation>Fügen Sie den Ordner erneut hinzu, sobald sich die Datei nicht mehr ändert.</translation>
    </message>
    <message>
        <source>This is a pipe, socket or device (or a link to one), not a media file; it was left out.</source>
        <translation>Dies ist eine Pipe, ein Socket oder ein Gerät (oder ein Link darauf), keine Mediendatei; es wurde ausgelassen.</translation>
    </message>
    <message>
        <source>Nothing to do: Sidecar never reads such entries.</source>
        <translation>Nichts zu tun: Sidecar liest solche Einträge nie.</translation>
    </message>
    <message>
        <source>The file is empty (0 bytes), so there is nothing to process.</source>
        <translation>Die Datei ist leer (0 Byte), es gibt nichts zu verarbeiten.</translation>
    </message>
    <message>
        <source>Replace it with the complete file, then add the folder again.</source>
        <translation>Ersetzen Sie sie durch die vollständige Datei und fügen Sie den Ordner erneut hinzu.</translation>
    </message>
    <message>
        <source>A link points at a file that does not exist; it was left out.</source>
        <translation>Ein Link zeigt auf eine Datei, die nicht existiert; er wurde ausgelassen.</translation>
    </message>
    <message>
        <source>Fix or remove the link if the file should be processed.</source>
        <translation>Korrigieren oder entfernen Sie den Link, falls die Datei verarbeitet werden soll.</translation>
    </message>
    <message>
        <source>A step made no progress for too long, so it was stopped and the queue went on.</source>
        <translation>Ein Schritt kam zu lange nicht voran; er wurde gestoppt und die Warteschlange lief weiter.</translation>
    </message>
    <message>
        <source>Check that the file plays and its disk answers, then retry the item.</source>
        <translation>Prüfen Sie, ob die Datei abspielbar ist und ihr Laufwerk antwortet, und wiederholen Sie dann das Element.</translation>
    </message>
    <message>
        <source>Sidecar itself crashed on this file several times, so it was set aside.</source>
        <translation>Sidecar selbst ist an dieser Datei mehrmals abgestürzt, daher wurde sie zurückgestellt.</translation>
    </message>
    <message>
        <source>Check the file plays; send the crash report (Log tab) with a bug report.</source>
        <translation>Prüfen Sie, ob die Datei abspielt; senden Sie den Absturzbericht (Reiter Protokoll) mit einer Fehlermeldung.</translation>
    </message>
    <message>
        <source>The disk holding the folder is full.</source>
        <translation>Das Laufwerk mit dem Ordner ist voll.</translation>
    </message>
    <message>
        <source>Free some space; Sidecar retries by itself.</source>
        <translation>Geben Sie Speicherplatz frei; Sidecar versucht es selbst erneut.</translation>
    </message>
    <message>
        <source>Sidecar may not write into the file&apos;s folder.</source>
        <translation>Sidecar darf nicht in den Ordner der Datei schreiben.</translation>
    </message>
    <message>
        <source>Give your user write permission on the folder, then retry the item.</source>
        <translation>Geben Sie Ihrem Benutzer Schreibrecht auf den Ordner, dann wiederholen Sie den Eintrag.</translation>
    </message>
    <message>
        <source>Writing a file next to the media failed.</source>
        <translation>Das Schreiben einer Datei neben dem Medium schlug fehl.</translation>
    </message>
    <message>
        <source>The file&apos;s name, or the output name made from it, is not allowed on this system (Windows refuses &lt;&gt;:&quot;|?* and names like CON).</source>
        <translation>Der Dateiname oder der daraus gebildete Ausgabename ist auf diesem System nicht erlaubt (Windows lehnt &lt;&gt;:&quot;|?* und Namen wie CON ab).</translation>
    </message>
    <message>
        <source>Rename the media file, then add it again.</source>
        <translation>Benennen Sie die Mediendatei um und fügen Sie sie erneut hinzu.</translation>
    </message>
    <message>
        <source>The output name would be longer than the file system allows.</source>
        <translation>Der Ausgabename wäre länger, als das Dateisystem erlaubt.</translation>
    </message>
    <message>
        <source>Shorten the media file&apos;s name, then add it again.</source>
        <translation>Kürzen Sie den Namen der Mediendatei und fügen Sie sie erneut hinzu.</translation>
    </message>
    <message>
        <source>A file Sidecar prepared in its workspace was damaged before it was placed.</source>
        <translation>Eine Datei, die Sidecar in seinem Arbeitsbereich vorbereitet hatte, wurde vor dem Ablegen beschädigt.</translation>
    </message>
    <message>
        <source>Retry the item; check the disk holding Sidecar&apos;s data if it happens again.</source>
        <translation>Wiederholen Sie den Eintrag; prüfen Sie das Laufwerk mit den Daten von Sidecar, wenn es wieder passiert.</translation>
    </message>
    <message>
        <source>Someone else changed the subtitle file while Sidecar was writing it.</source>
        <translation>Jemand anderes hat die Untertiteldatei geändert, während Sidecar sie schrieb.</translation>
    </message>
    <message>
        <source>Decide in the Review tab which version to keep.</source>
        <translation>Entscheiden Sie im Reiter Prüfen, welche Fassung bleibt.</translation>
    </message>
    <message>
        <source>Whether a file was written is unknown or contested.</source>
        <translation>Ob eine Datei geschrieben wurde, ist unbekannt oder umstritten.</translation>
    </message>
    <message>
        <source>Decide in the Review tab.</source>
        <translation>Entscheiden Sie im Reiter Prüfen.</translation>
    </message>
    <message>
        <source>The subtitle file holds your edit from Sidecar&apos;s editor; this run made a new version.</source>
        <translation>Die Untertiteldatei enthält Ihre Bearbeitung aus dem Editor von Sidecar; dieser Lauf hat eine neue Fassung erstellt.</translation>
    </message>
    <message>
        <source>Decide in the Review tab: Applied keeps your edit, Not applied writes Sidecar&apos;s.</source>
        <translation>Entscheiden Sie im Reiter Prüfen: „Übernommen“ behält Ihre Bearbeitung, „Nicht übernommen“ schreibt die von Sidecar.</translation>
    </message>
    <message>
        <source>Skipped by a review decision.</source>
        <translation>Durch eine Prüfentscheidung übersprungen.</translation>
    </message>
    <message>
        <source>The model process stopped unexpectedly.</source>
        <translation>Der Modellprozess wurde unerwartet beendet.</translation>
    </message>
    <message>
        <source>The graphics card ran out of memory.</source>
        <translation>Der Grafikkarte ging der Speicher aus.</translation>
    </message>
    <message>
        <source>Sidecar released its models and retries; close other GPU programs if it repeats.</source>
        <translation>Sidecar hat seine Modelle freigegeben und versucht es erneut; schließen Sie andere GPU-Programme, wenn es sich wiederholt.</translation>
    </message>
    <message>
        <source>A temporary problem interrupted the work.</source>
        <translation>Ein vorübergehendes Problem hat die Arbeit unterbrochen.</translation>
    </message>
    <message>
        <source>Sidecar hit an unexpected error.</source>
        <translation>Sidecar ist auf einen unerwarteten Fehler gestoßen.</translation>
    </message>
    <message>
        <source>A subtitle batch did not fit the translation model&apos;s context.</source>
        <translation>Ein Untertitelblock passte nicht in den Kontext des Übersetzungsmodells.</translation>
    </message>
    <message>
        <source>Choose a translation model with a larger context in Settings → Models.</source>
        <translation>Wählen Sie unter Einstellungen → Modelle ein Übersetzungsmodell mit größerem Kontext.</translation>
    </message>
    <message>
        <source>The translation server could not be reached or was busy.</source>
        <translation>Der Übersetzungsserver war nicht erreichbar oder ausgelastet.</translation>
    </message>
    <message>
        <source>Check that the server in Settings → Output is running; Sidecar retries.</source>
        <translation>Prüfen Sie, ob der Server aus Einstellungen → Ausgabe läuft; Sidecar versucht es erneut.</translation>
    </message>
    <message>
        <source>The translation server refused the request.</source>
        <translation>Der Übersetzungsserver hat die Anfrage abgelehnt.</translation>
    </message>
    <message>
        <source>Check the server address and model name in Settings → Output.</source>
        <translation>Prüfen Sie Serveradresse und Modellnamen unter Einstellungen → Ausgabe.</translation>
    </message>
    <message>
        <source>Most lines could not be translated, so no translated subtitles were written (only the transcript).</source>
        <translation>Die meisten Zeilen ließen sich nicht übersetzen, daher wurden keine übersetzten Untertitel geschrieben (nur das Transkript).</translation>
    </message>
    <message>
        <source>The transcript is written; the translation waits for its translator to be installed.</source>
        <translation>Das Transkript ist geschrieben; die Übersetzung wartet, bis ihr Übersetzer installiert ist.</translation>
    </message>
    <message>
        <source>Install the translator named (Settings → Models, or `sidecar models install`); the item is then translated by itself.</source>
        <translation>Installieren Sie den genannten Übersetzer (Einstellungen → Modelle oder `sidecar models install`); danach wird das Element von selbst übersetzt.</translation>
    </message>
    <message>
        <source>The translation was written, but a tenth or more of its lines failed the quality check and kept their original text.</source>
        <translation>Die Übersetzung wurde geschrieben, aber mindestens ein Zehntel ihrer Zeilen hat die Qualitätsprüfung nicht bestanden und behielt den Originaltext.</translation>
    </message>
    <message>
        <source>Check the lines listed (the subtitle editor marks them); a better translation model fixes them (Settings → Models).</source>
        <translation>Prüfen Sie die aufgeführten Zeilen (der Untertitel-Editor markiert sie); ein besseres Übersetzungsmodell behebt sie (Einstellungen → Modelle).</translation>
    </message>
    <message>
        <source>A few lines kept their original text; the rest is translated.</source>
        <translation>Einige Zeilen behielten ihren Originaltext; der Rest ist übersetzt.</translation>
    </message>
    <message>
        <source>Check the lines listed; a better translation model fixes them (Settings → Models).</source>
        <translation>Prüfen Sie die aufgeführten Zeilen; ein besseres Übersetzungsmodell behebt sie (Einstellungen → Modelle).</translation>
    </message>
    <message>
        <source>Some translated lines read faster than the reading speed allows; they are kept whole, not cut.</source>
        <extracomment>An item note: the item&apos;s ``over_reading_speed`` fact lists the cues (flagged, never cut).</extracomment>
        <translation>Einige übersetzte Zeilen lesen sich schneller, als die Lesegeschwindigkeit erlaubt; sie bleiben vollständig, nichts wird gekürzt.</translation>
    </message>
    <message>
        <source>Shorten them in the subtitle editor if you like, or choose the relaxed subtitle rules in Settings → Output.</source>
        <translation>Kürzen Sie sie bei Bedarf im Untertitel-Editor, oder wählen Sie die lockeren Untertitelregeln unter Einstellungen → Ausgabe.</translation>
    </message>
    <message>
        <source>No speech was heard, so no subtitles were written.</source>
        <translation>Es war keine Sprache zu hören, daher wurden keine Untertitel geschrieben.</translation>
    </message>
    <message>
        <source>A subtitle in the target language is already next to the file.</source>
        <translation>Ein Untertitel in der Zielsprache liegt bereits neben der Datei.</translation>
    </message>
    <message>
        <source>The video already carries subtitles in the target language.</source>
        <translation>Das Video enthält bereits Untertitel in der Zielsprache.</translation>
    </message>
    <message>
        <source>The computer ran out of memory for this file, on the graphics card and then on the CPU too.</source>
        <translation>Dem Computer ging für diese Datei der Speicher aus, erst auf der Grafikkarte und dann auch auf der CPU.</translation>
    </message>
    <message>
        <source>Close other programs or choose a smaller model in Settings → Models, then retry.</source>
        <translation>Schließen Sie andere Programme oder wählen Sie ein kleineres Modell unter Einstellungen → Modelle, dann wiederholen Sie.</translation>
    </message>
    <message>
        <source>This camera raw file carries no preview picture to index.</source>
        <translation>Diese Kamera-Rohdatei enthält kein Vorschaubild zum Indizieren.</translation>
    </message>
    <message>
        <source>Export a JPEG of it from your photo software; Sidecar never decodes whole raw files.</source>
        <translation>Exportieren Sie ein JPEG davon aus Ihrer Fotosoftware; Sidecar dekodiert nie ganze Rohdateien.</translation>
    </message>
    <message>
        <source>This file was skipped, so there is nothing to change for it.</source>
        <translation>Diese Datei wurde übersprungen, daher gibt es an ihr nichts zu ändern.</translation>
    </message>
    <message>
        <source>Add its folder again with --redo to process it anyway.</source>
        <translation>Fügen Sie ihren Ordner mit --redo erneut hinzu, um sie trotzdem zu bearbeiten.</translation>
    </message>
    <message>
        <source>A file of this item is waiting for your decision in Review.</source>
        <translation>Eine Datei dieses Eintrags wartet unter Prüfen auf Ihre Entscheidung.</translation>
    </message>
    <message>
        <source>Decide it in Review first, then change the item.</source>
        <translation>Entscheiden Sie sie zuerst unter Prüfen, dann ändern Sie den Eintrag.</translation>
    </message>
    <message>
        <source>Sidecar has not written subtitles for this file, or they are no longer next to it.</source>
        <translation>Sidecar hat für diese Datei keine Untertitel geschrieben, oder sie liegen nicht mehr daneben.</translation>
    </message>
    <message>
        <source>Run a job on its folder first; the subtitles Sidecar writes open here.</source>
        <translation>Lassen Sie zuerst einen Auftrag über ihren Ordner laufen; die Untertitel, die Sidecar schreibt, öffnen sich hier.</translation>
    </message>
    <message>
        <source>The subtitle file changed on disk after it was opened; nothing was saved over it.</source>
        <translation>Die Untertiteldatei hat sich nach dem Öffnen auf der Festplatte geändert; nichts wurde darüber gespeichert.</translation>
    </message>
    <message>
        <source>Open it again to see that change, then edit.</source>
        <translation>Öffnen Sie sie erneut, um die Änderung zu sehen, dann bearbeiten Sie sie.</translation>
    </message>
    <message>
        <source>Sidecar is working on this file right now.</source>
        <translation>Sidecar bearbeitet diese Datei gerade.</translation>
    </message>
    <message>
        <source>Save again when it is done.</source>
        <translation>Speichern Sie erneut, wenn es fertig ist.</translation>
    </message>
    <message>
        <source>Adding the folder was interrupted before every file was listed.</source>
        <translation>Das Hinzufügen des Ordners wurde unterbrochen, bevor jede Datei erfasst war.</translation>
    </message>
    <message>
        <source>Add the folder again.</source>
        <translation>Fügen Sie den Ordner erneut hinzu.</translation>
    </message>
    <message>
        <source>The file could not be read (no permission, or a disk error).</source>
        <translation>Die Datei konnte nicht gelesen werden (keine Berechtigung oder ein Datenträgerfehler).</translation>
    </message>
    <message>
        <source>Check its permissions, then retry the item or add the folder again.</source>
        <translation>Prüfen Sie die Berechtigungen und wiederholen Sie dann das Element oder fügen Sie den Ordner erneut hinzu.</translation>
    </message>
    <message>
        <source>A folder could not be read while it was added.</source>
        <translation>Ein Ordner ließ sich beim Hinzufügen nicht lesen.</translation>
    </message>
    <message>
        <source>Check its permissions, then add the folder again.</source>
        <translation>Prüfen Sie ihre Berechtigungen, dann fügen Sie den Ordner erneut hinzu.</translation>
    </message>
    <message>
        <source>A folder link leads back into a folder already scanned; it was scanned once.</source>
        <translation>Eine Ordnerverknüpfung führt zurück in einen bereits durchsuchten Ordner; er wurde einmal durchsucht.</translation>
    </message>
    <message>
        <source>A file disappeared while the folder was added.</source>
        <translation>Eine Datei verschwand, während der Ordner hinzugefügt wurde.</translation>
    </message>
    <message>
        <source>Add the folder again if needed.</source>
        <translation>Fügen Sie den Ordner bei Bedarf erneut hinzu.</translation>
    </message>
    <message>
        <source>The folder lies inside (or holds) a folder already watched.</source>
        <translation>Der Ordner liegt in einem bereits überwachten Ordner (oder enthält einen).</translation>
    </message>
    <message>
        <source>Watch only one of the two folders.</source>
        <translation>Überwachen Sie nur einen der beiden Ordner.</translation>
    </message>
    <message>
        <source>That folder is already watched.</source>
        <translation>Dieser Ordner wird bereits überwacht.</translation>
    </message>
    <message>
        <source>No such watched folder.</source>
        <translation>Kein solcher überwachter Ordner.</translation>
    </message>
    <message>
        <source>Check the list of watched folders in Settings.</source>
        <translation>Prüfen Sie die Liste der überwachten Ordner in den Einstellungen.</translation>
    </message>
    <message>
        <source>Someone else decided this review first.</source>
        <translation>Jemand anderes hat diese Prüfung zuerst entschieden.</translation>
    </message>
    <message>
        <source>Look at the decision now shown and decide again if needed.</source>
        <translation>Sehen Sie sich die nun gezeigte Entscheidung an und entscheiden Sie bei Bedarf neu.</translation>
    </message>
    <message>
        <source>The job, item or review no longer exists.</source>
        <translation>Der Auftrag, der Eintrag oder die Prüfung existiert nicht mehr.</translation>
    </message>
    <message>
        <source>Refresh the list.</source>
        <translation>Aktualisieren Sie die Liste.</translation>
    </message>
    <message>
        <source>The work stopped at a checkpoint (paused or closing) and resumes later.</source>
        <translation>Die Arbeit hielt an einem Prüfpunkt an (pausiert oder beim Schließen) und geht später weiter.</translation>
    </message>
    <message>
        <source>Another worker took over this step.</source>
        <translation>Ein anderer Worker hat diesen Schritt übernommen.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>A --path-map is not LIBRARY_PREFIX=LOCAL_PREFIX with two absolute paths.</source>
        <translation>Eine --path-map ist nicht LIBRARY_PREFIX=LOCAL_PREFIX mit zwei absoluten Pfaden.</translation>
    </message>
    <message>
        <source>Write it as /mnt/nas/media=D:\Media (quote it in the shell).</source>
        <translation>Schreiben Sie sie als /mnt/nas/media=D:\Media (in der Shell in Anführungszeichen).</translation>
    </message>
    <message>
        <source>The worker did not start: a mapped folder is missing or does not show the library&apos;s files.</source>
        <translation>Der Worker ist nicht gestartet: ein zugeordneter Ordner fehlt oder zeigt nicht die Dateien der Bibliothek.</translation>
    </message>
    <message>
        <source>Mount the share, or fix the --path-map so its local side shows the same files.</source>
        <translation>Binden Sie die Freigabe ein, oder korrigieren Sie die --path-map, sodass ihre lokale Seite dieselben Dateien zeigt.</translation>
    </message>
    <message>
        <source>A worker&apos;s mapped folder disappeared while it worked; the step was given back.</source>
        <translation>Der zugeordnete Ordner eines Workers verschwand während der Arbeit; der Schritt wurde zurückgegeben.</translation>
    </message>
    <message>
        <source>Another machine (or this one, once the folder is back) takes it over.</source>
        <translation>Ein anderer Rechner (oder dieser, sobald der Ordner zurück ist) übernimmt ihn.</translation>
    </message>
    <message>
        <source>No --path-map of the worker covers this file; it was left for another machine.</source>
        <translation>Keine --path-map des Workers deckt diese Datei ab; sie blieb für einen anderen Rechner liegen.</translation>
    </message>
    <message>
        <source>The engine is still starting.</source>
        <translation>Die Engine startet noch.</translation>
    </message>
    <message>
        <source>Try again in a moment.</source>
        <translation>Versuchen Sie es gleich noch einmal.</translation>
    </message>
    <message>
        <source>The window called the engine on its own thread.</source>
        <translation>Das Fenster hat die Engine in seinem eigenen Thread aufgerufen.</translation>
    </message>
    <message>
        <source>The request is not valid.</source>
        <translation>Die Anfrage ist ungültig.</translation>
    </message>
    <message>
        <source>Check the command&apos;s options (`--help`).</source>
        <translation>Prüfen Sie die Optionen des Befehls (`--help`).</translation>
    </message>
    <message>
        <source>The glossary file could not be read as text.</source>
        <translation>Die Glossardatei konnte nicht als Text gelesen werden.</translation>
    </message>
    <message>
        <source>Give a UTF-8 text file with one `term` or `term = translation` a line.</source>
        <translation>Geben Sie eine UTF-8-Textdatei mit einem `Begriff` oder `Begriff = Übersetzung` pro Zeile an.</translation>
    </message>
    <message>
        <source>A setting has a value Sidecar does not know.</source>
        <translation>Eine Einstellung hat einen Wert, den Sidecar nicht kennt.</translation>
    </message>
    <message>
        <source>Fix it in Settings.</source>
        <translation>Korrigieren Sie sie in den Einstellungen.</translation>
    </message>
    <message>
        <source>This Sidecar has no media pipelines registered.</source>
        <translation>Für dieses Sidecar sind keine Medienverarbeitungen registriert.</translation>
    </message>
    <message>
        <source>Searching by image needs a visual (CLIP) model.</source>
        <translation>Die Suche nach Bild braucht ein visuelles Modell (CLIP).</translation>
    </message>
    <message>
        <source>Install one in Settings → Models (or `sidecar models`).</source>
        <translation>Installieren Sie eines unter Einstellungen → Modelle (oder `sidecar models`).</translation>
    </message>
    <message>
        <source>The library database cannot be opened from that URL.</source>
        <translation>Die Bibliotheksdatenbank lässt sich über diese URL nicht öffnen.</translation>
    </message>
    <message>
        <source>Use postgresql+psycopg://user@host:port/db or sqlite:///absolute/path (--database-url, SIDECAR_DATABASE_URL or the database_url setting).</source>
        <translation>Verwenden Sie postgresql+psycopg://user@host:port/db oder sqlite:///absoluter/pfad (--database-url, SIDECAR_DATABASE_URL oder die Einstellung database_url).</translation>
    </message>
    <message>
        <source>The library database&apos;s server cannot be reached.</source>
        <translation>Der Server der Bibliotheksdatenbank ist nicht erreichbar.</translation>
    </message>
    <message>
        <source>Check the network and that PostgreSQL runs; Sidecar reconnects by itself.</source>
        <translation>Prüfen Sie das Netzwerk und ob PostgreSQL läuft; Sidecar verbindet sich selbst neu.</translation>
    </message>
    <message>
        <source>The library database cannot be moved back to an older schema.</source>
        <translation>Die Bibliotheksdatenbank lässt sich nicht auf ein älteres Schema zurücksetzen.</translation>
    </message>
    <message>
        <source>Open a backup of the library with the older Sidecar instead.</source>
        <translation>Öffnen Sie stattdessen eine Sicherung der Bibliothek mit dem älteren Sidecar.</translation>
    </message>
    <message>
        <source>This library was written by a newer Sidecar.</source>
        <translation>Diese Bibliothek wurde von einem neueren Sidecar geschrieben.</translation>
    </message>
    <message>
        <source>Update Sidecar.</source>
        <translation>Aktualisieren Sie Sidecar.</translation>
    </message>
    <message>
        <source>A work schedule is not &quot;all&quot;, &quot;off&quot; or a span like 22:00-07:00.</source>
        <translation>Ein Arbeitszeitplan ist nicht „all“, „off“ oder eine Spanne wie 22:00-07:00.</translation>
    </message>
    <message>
        <source>Correct it in Settings → Schedule &amp; power.</source>
        <translation>Korrigieren Sie ihn unter Einstellungen → Zeitplan und Energie.</translation>
    </message>
    <message>
        <source>A file of the installation is missing.</source>
        <translation>Eine Datei der Installation fehlt.</translation>
    </message>
    <message>
        <source>Reinstall Sidecar.</source>
        <translation>Installieren Sie Sidecar neu.</translation>
    </message>
    <message>
        <source>A model that ships with Sidecar is missing.</source>
        <translation>Ein Modell, das mit Sidecar ausgeliefert wird, fehlt.</translation>
    </message>
    <message>
        <source>That model ships with Sidecar and needs no install.</source>
        <translation>Dieses Modell wird mit Sidecar ausgeliefert und braucht keine Installation.</translation>
    </message>
    <message>
        <source>A downloaded model does not match its published checksum.</source>
        <translation>Ein heruntergeladenes Modell stimmt nicht mit seiner veröffentlichten Prüfsumme überein.</translation>
    </message>
    <message>
        <source>Install it again; the damaged download was not used.</source>
        <translation>Installieren Sie es erneut; der beschädigte Download wurde nicht verwendet.</translation>
    </message>
    <message>
        <source>The model download failed.</source>
        <translation>Der Download des Modells schlug fehl.</translation>
    </message>
    <message>
        <source>Check the connection and install again; the download resumes where it stopped.</source>
        <translation>Prüfen Sie die Verbindung und installieren Sie erneut; der Download setzt dort fort, wo er anhielt.</translation>
    </message>
    <message>
        <source>The download was cancelled; what was fetched is kept for a resume.</source>
        <translation>Der Download wurde abgebrochen; das Geladene bleibt für eine Fortsetzung erhalten.</translation>
    </message>
    <message>
        <source>There is not enough free disk space for the model.</source>
        <translation>Für das Modell ist nicht genug freier Speicherplatz vorhanden.</translation>
    </message>
    <message>
        <source>Free space on the disk holding Sidecar&apos;s data, then install again.</source>
        <translation>Geben Sie Platz auf dem Laufwerk mit den Daten von Sidecar frei, dann installieren Sie erneut.</translation>
    </message>
    <message>
        <source>That model cannot be downloaded by Sidecar.</source>
        <translation>Dieses Modell kann Sidecar nicht herunterladen.</translation>
    </message>
    <message>
        <source>Register a local copy with `sidecar models register`.</source>
        <translation>Registrieren Sie eine lokale Kopie mit `sidecar models register`.</translation>
    </message>
    <message>
        <source>That model is already being installed.</source>
        <translation>Dieses Modell wird bereits installiert.</translation>
    </message>
    <message>
        <source>Wait for it to finish.</source>
        <translation>Warten Sie, bis es fertig ist.</translation>
    </message>
    <message>
        <source>The model request cannot be done as asked.</source>
        <translation>Die Modellanfrage lässt sich so nicht ausführen.</translation>
    </message>
    <message>
        <source>See the message for why.</source>
        <translation>Der Grund steht in der Meldung.</translation>
    </message>
    <message>
        <source>The chosen model&apos;s files are missing.</source>
        <translation>Die Dateien des gewählten Modells fehlen.</translation>
    </message>
    <message>
        <source>Install the model again, or choose another in Settings → Models.</source>
        <translation>Installieren Sie das Modell erneut, oder wählen Sie ein anderes unter Einstellungen → Modelle.</translation>
    </message>
    <message>
        <source>That model is not installed.</source>
        <translation>Dieses Modell ist nicht installiert.</translation>
    </message>
    <message>
        <source>Install it first (Settings → Models).</source>
        <translation>Installieren Sie es zuerst (Einstellungen → Modelle).</translation>
    </message>
    <message>
        <source>A model gave answers of the wrong shape.</source>
        <translation>Ein Modell gab Antworten in falscher Form.</translation>
    </message>
    <message>
        <source>Reinstall the model.</source>
        <translation>Installieren Sie das Modell neu.</translation>
    </message>
    <message>
        <source>A model could not be loaded.</source>
        <translation>Ein Modell ließ sich nicht laden.</translation>
    </message>
    <message>
        <source>Reinstall the model, or choose another.</source>
        <translation>Installieren Sie das Modell neu, oder wählen Sie ein anderes.</translation>
    </message>
    <message>
        <source>No model file at that path.</source>
        <translation>Unter diesem Pfad liegt keine Modelldatei.</translation>
    </message>
    <message>
        <source>Check the path and register it again.</source>
        <translation>Prüfen Sie den Pfad und registrieren Sie es erneut.</translation>
    </message>
    <message>
        <source>That model name is already used.</source>
        <translation>Dieser Modellname wird bereits verwendet.</translation>
    </message>
    <message>
        <source>Choose another name.</source>
        <translation>Wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <source>The file recording the model choices cannot be read.</source>
        <translation>Die Datei mit den Modellwahlen lässt sich nicht lesen.</translation>
    </message>
    <message>
        <source>Move it aside; the choices are then reset.</source>
        <translation>Legen Sie sie beiseite; die Wahlen werden dann zurückgesetzt.</translation>
    </message>
    <message>
        <source>That file is not a usable model.</source>
        <translation>Diese Datei ist kein brauchbares Modell.</translation>
    </message>
    <message>
        <source>Check the file, or download it again.</source>
        <translation>Prüfen Sie die Datei, oder laden Sie sie erneut herunter.</translation>
    </message>
    <message>
        <source>That file is not a translation package Sidecar can install; nothing was changed.</source>
        <translation>Diese Datei ist kein Übersetzungspaket, das Sidecar installieren kann; nichts wurde verändert.</translation>
    </message>
    <message>
        <source>Download the package again from the link Settings → Models gives.</source>
        <translation>Laden Sie das Paket erneut über den Link in Einstellungen → Modelle herunter.</translation>
    </message>
    <message>
        <source>That is not a valid model name.</source>
        <translation>Das ist kein gültiger Modellname.</translation>
    </message>
    <message>
        <source>Use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, at most 64.</source>
        <translation>Verwenden Sie Buchstaben, Ziffern, &apos;.&apos;, &apos;_&apos; und &apos;-&apos;, höchstens 64.</translation>
    </message>
    <message>
        <source>No model of that name.</source>
        <translation>Kein Modell dieses Namens.</translation>
    </message>
    <message>
        <source>See the list in Settings → Models (or `sidecar models`).</source>
        <translation>Siehe die Liste unter Einstellungen → Modelle (oder `sidecar models`).</translation>
    </message>
    <message>
        <source>No model role of that name.</source>
        <translation>Keine Modellrolle dieses Namens.</translation>
    </message>
    <message>
        <source>Use a role listed by `sidecar models`.</source>
        <translation>Verwenden Sie eine Rolle, die `sidecar models` aufführt.</translation>
    </message>
    <message>
        <source>Sidecar always uses its bundled model for that role.</source>
        <translation>Sidecar verwendet für diese Rolle immer sein mitgeliefertes Modell.</translation>
    </message>
    <message>
        <source>The model catalogue is missing from the installation.</source>
        <translation>Der Modellkatalog fehlt in der Installation.</translation>
    </message>
    <message>
        <source>The model catalogue of the installation is damaged.</source>
        <translation>Der Modellkatalog der Installation ist beschädigt.</translation>
    </message>
    <message>
        <source>The request carried no file in the field the endpoint reads.</source>
        <translation>Die Anfrage enthielt keine Datei in dem Feld, das der Endpunkt liest.</translation>
    </message>
    <message>
        <source>Send the audio as the multipart field `audio_file`.</source>
        <translation>Senden Sie den Ton als Multipart-Feld `audio_file`.</translation>
    </message>
    <message>
        <source>The uploaded file is empty (0 bytes).</source>
        <translation>Die hochgeladene Datei ist leer (0 Bytes).</translation>
    </message>
    <message>
        <source>Check that the client read the audio before sending it.</source>
        <translation>Prüfen Sie, ob der Client den Ton gelesen hat, bevor er ihn sendet.</translation>
    </message>
    <message>
        <source>The uploaded file holds no audio Sidecar can decode.</source>
        <translation>Die hochgeladene Datei enthält keinen Ton, den Sidecar dekodieren kann.</translation>
    </message>
    <message>
        <source>Send a media file with an audio track, or raw 16 kHz mono s16le PCM with encode=false.</source>
        <translation>Senden Sie eine Mediendatei mit Tonspur oder rohes 16-kHz-Mono-PCM (s16le) mit encode=false.</translation>
    </message>
    <message>
        <source>The upload is larger than the server&apos;s limit.</source>
        <translation>Der Upload ist größer als die Grenze des Servers.</translation>
    </message>
    <message>
        <source>Raise serve_upload_limit_mb in the settings, or send the audio track alone.</source>
        <translation>Erhöhen Sie serve_upload_limit_mb in den Einstellungen oder senden Sie nur die Tonspur.</translation>
    </message>
    <message>
        <source>The request&apos;s token is missing or wrong.</source>
        <translation>Das Token der Anfrage fehlt oder ist falsch.</translation>
    </message>
    <message>
        <source>Send `Authorization: Bearer &lt;serve_token&gt;` (or the token as the URL&apos;s password).</source>
        <translation>Senden Sie `Authorization: Bearer &lt;serve_token&gt;` (oder das Token als Passwort der URL).</translation>
    </message>
    <message>
        <source>The requested output format is not one Sidecar writes.</source>
        <translation>Das verlangte Ausgabeformat schreibt Sidecar nicht.</translation>
    </message>
    <message>
        <source>Ask for srt, vtt, txt, json or tsv.</source>
        <translation>Verlangen Sie srt, vtt, txt, json oder tsv.</translation>
    </message>
    <message>
        <source>The path is not inside a folder added to the library or watched.</source>
        <translation>Der Pfad liegt in keinem Ordner, der zur Bibliothek hinzugefügt oder überwacht wird.</translation>
    </message>
    <message>
        <source>Add or watch the folder, or fix the server path map (serve_path_map).</source>
        <translation>Fügen Sie den Ordner hinzu oder überwachen Sie ihn, oder korrigieren Sie die Pfadzuordnung des Servers (serve_path_map).</translation>
    </message>
    <message>
        <source>The subtitle was placed, but the media server did not take the request to refresh the item.</source>
        <translation>Der Untertitel wurde abgelegt, aber der Medienserver hat die Bitte, den Eintrag zu aktualisieren, nicht angenommen.</translation>
    </message>
    <message>
        <source>Check the server&apos;s address and token in the settings; its next library scan finds the subtitle.</source>
        <translation>Prüfen Sie Adresse und Token des Servers in den Einstellungen; sein nächster Bibliotheksscan findet den Untertitel.</translation>
    </message>
</context>
<context>
    <name>Columns</name>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>ETA</source>
        <translation>Restzeit</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Audio</source>
        <translation>Tonspur</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>Rechner</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>Prozess</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Arbeitet an</translation>
    </message>
    <message>
        <source>Heartbeat</source>
        <translation>Lebenszeichen</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Alive</source>
        <translation>Aktiv</translation>
    </message>
</context>
<context>
    <name>DatabaseDialog</name>
    <message>
        <source>No database server answered at that address. Check the address and that PostgreSQL runs there, or go back to the library on this computer.</source>
        <extracomment>What the person can do about each reason the library did not open (other codes: the first one).</extracomment>
        <translation>Unter dieser Adresse antwortet kein Datenbankserver. Prüfen Sie die Adresse und ob PostgreSQL dort läuft, oder kehren Sie zur Bibliothek auf diesem Computer zurück.</translation>
    </message>
    <message>
        <source>Sidecar cannot open a library from that address. Correct it (postgresql://user@server/database), or go back to the library on this computer.</source>
        <translation>Sidecar kann unter dieser Adresse keine Bibliothek öffnen. Korrigieren Sie sie (postgresql://benutzer@server/datenbank) oder kehren Sie zur Bibliothek auf diesem Computer zurück.</translation>
    </message>
    <message>
        <source>A newer Sidecar wrote this library. Update Sidecar, or go back to the library on this computer.</source>
        <translation>Ein neueres Sidecar hat diese Bibliothek geschrieben. Aktualisieren Sie Sidecar oder kehren Sie zur Bibliothek auf diesem Computer zurück.</translation>
    </message>
    <message>
        <source>Opens: a Sidecar library.</source>
        <translation>Lässt sich öffnen: eine Sidecar-Bibliothek.</translation>
    </message>
    <message>
        <source>Opens: an empty database; Sidecar creates the library in it.</source>
        <translation>Lässt sich öffnen: eine leere Datenbank; Sidecar legt die Bibliothek darin an.</translation>
    </message>
    <message>
        <source>Does not open: {reason}</source>
        <translation>Lässt sich nicht öffnen: {reason}</translation>
    </message>
    <message>
        <source>The library cannot be opened</source>
        <translation>Die Bibliothek lässt sich nicht öffnen</translation>
    </message>
    <message>
        <source>Sidecar could not open the library database.</source>
        <translation>Sidecar konnte die Bibliotheksdatenbank nicht öffnen.</translation>
    </message>
    <message>
        <source>empty: the library on this computer ({path})</source>
        <translation>leer: die Bibliothek auf diesem Computer ({path})</translation>
    </message>
    <message>
        <source>Try this address</source>
        <translation>Diese Adresse versuchen</translation>
    </message>
    <message>
        <source>Use the library on this computer</source>
        <translation>Bibliothek auf diesem Computer verwenden</translation>
    </message>
    <message>
        <source>Library database:</source>
        <translation>Bibliotheksdatenbank:</translation>
    </message>
    <message>
        <source>Checking {url}…</source>
        <translation>Prüfe {url}…</translation>
    </message>
    <message>
        <source>Opening the library…</source>
        <translation>Öffne die Bibliothek…</translation>
    </message>
</context>
<context>
    <name>EvidenceView</name>
    <message>
        <source>What Sidecar wrote</source>
        <translation>Was Sidecar geschrieben hat</translation>
    </message>
    <message>
        <source>On disk now</source>
        <translation>Jetzt auf der Platte</translation>
    </message>
</context>
<context>
    <name>HoldWords</name>
    <message>
        <source>waiting for the schedule (starts {time})</source>
        <translation>wartet auf den Zeitplan (beginnt um {time})</translation>
    </message>
    <message>
        <source>waiting for the schedule</source>
        <translation>wartet auf den Zeitplan</translation>
    </message>
    <message>
        <source>paused until {time}</source>
        <translation>pausiert bis {time}</translation>
    </message>
    <message>
        <source>paused on battery power</source>
        <translation>pausiert im Akkubetrieb</translation>
    </message>
    <message>
        <source>paused while the computer is in use</source>
        <translation>pausiert, während der Computer benutzt wird</translation>
    </message>
</context>
<context>
    <name>JobCounts</name>
    <message numerus="yes">
        <source>all %n failed</source>
        <translation>
            <numerusform>alle %n fehlgeschlagen</numerusform>
            <numerusform>alle %n fehlgeschlagen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n fehlgeschlagen</numerusform>
            <numerusform>%n fehlgeschlagen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n to decide</source>
        <translation>
            <numerusform>%n zu entscheiden</numerusform>
            <numerusform>%n zu entscheiden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n not translated</source>
        <translation>
            <numerusform>%n nicht übersetzt</numerusform>
            <numerusform>%n nicht übersetzt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n translation(s) to check</source>
        <translation>
            <numerusform>%n Übersetzung zu prüfen</numerusform>
            <numerusform>%n Übersetzungen zu prüfen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>JobLabel</name>
    <message>
        <source>adding files</source>
        <extracomment>The words app.status_words.JobLabel uses where the stored status word is not what a person says.</extracomment>
        <translation>Dateien werden hinzugefügt</translation>
    </message>
    <message>
        <source>needs review</source>
        <translation>Prüfung nötig</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>fertig</translation>
    </message>
</context>
<context>
    <name>JobsFacade</name>
    <message>
        <source>Job finished</source>
        <translation>Auftrag abgeschlossen</translation>
    </message>
    <message>
        <source>{name}: {done} of {total} done</source>
        <translation>{name}: {done} von {total} erledigt</translation>
    </message>
    <message numerus="yes">
        <source>, %n to decide</source>
        <translation>
            <numerusform>, %n zu entscheiden</numerusform>
            <numerusform>, %n zu entscheiden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n failed</source>
        <translation>
            <numerusform>, %n fehlgeschlagen</numerusform>
            <numerusform>, %n fehlgeschlagen</numerusform>
        </translation>
    </message>
    <message>
        <source>Items failed</source>
        <translation>Einträge fehlgeschlagen</translation>
    </message>
    <message>
        <source>Review needed</source>
        <translation>Prüfung nötig</translation>
    </message>
</context>
<context>
    <name>JobsModel</name>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} Sek.</translation>
    </message>
    <message>
        <source>{minutes} min {seconds:02d} s</source>
        <translation>{minutes} Min. {seconds:02d} Sek.</translation>
    </message>
    <message>
        <source>{hours} h {minutes:02d} min</source>
        <translation>{hours} Std. {minutes:02d} Min.</translation>
    </message>
    <message>
        <source>Finished — no media files in this folder</source>
        <translation>Fertig — keine Mediendateien in diesem Ordner</translation>
    </message>
    <message>
        <source>Paused because everything is paused (Pause all); Resume all starts it.</source>
        <translation>Pausiert, weil alles pausiert ist („Alle pausieren“); „Alle fortsetzen“ startet ihn.</translation>
    </message>
    <message>
        <source>{name} (job {id})</source>
        <translation>{name} (Auftrag {id})</translation>
    </message>
    <message>
        <source>estimating…</source>
        <translation>wird geschätzt …</translation>
    </message>
</context>
<context>
    <name>LanguageCombo</name>
    <message>
        <source>English</source>
        <translation>Englisch</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>Chinesisch</translation>
    </message>
    <message>
        <source>Japanese</source>
        <translation>Japanisch</translation>
    </message>
    <message>
        <source>Korean</source>
        <translation>Koreanisch</translation>
    </message>
    <message>
        <source>French</source>
        <translation>Französisch</translation>
    </message>
    <message>
        <source>German</source>
        <translation>Deutsch</translation>
    </message>
    <message>
        <source>Spanish</source>
        <translation>Spanisch</translation>
    </message>
    <message>
        <source>Portuguese</source>
        <translation>Portugiesisch</translation>
    </message>
    <message>
        <source>Italian</source>
        <translation>Italienisch</translation>
    </message>
    <message>
        <source>Russian</source>
        <translation>Russisch</translation>
    </message>
    <message>
        <source>Arabic</source>
        <translation>Arabisch</translation>
    </message>
    <message>
        <source>Hindi</source>
        <translation>Hindi-Sprache</translation>
    </message>
    <message>
        <source>Dutch</source>
        <translation>Niederländisch</translation>
    </message>
    <message>
        <source>Polish</source>
        <translation>Polnisch</translation>
    </message>
    <message>
        <source>Turkish</source>
        <translation>Türkisch</translation>
    </message>
    <message>
        <source>Vietnamese</source>
        <translation>Vietnamesisch</translation>
    </message>
    <message>
        <source>Thai</source>
        <translation>Thailändisch</translation>
    </message>
    <message>
        <source>Indonesian</source>
        <translation>Indonesisch</translation>
    </message>
    <message>
        <source>Ukrainian</source>
        <translation>Ukrainisch</translation>
    </message>
    <message>
        <source>Swedish</source>
        <translation>Schwedisch</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>Automatisch erkennen</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Media ({patterns})</source>
        <translation>Mediendateien ({patterns})</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>Aktionen</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Ordner hinzufügen …</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Dateien hinzufügen …</translation>
    </message>
    <message>
        <source>Pause all</source>
        <translation>Alle anhalten</translation>
    </message>
    <message>
        <source>Resume all</source>
        <translation>Alle fortsetzen</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Einstellungen …</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suche</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Arbeitsprozesse</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Drop folders or files here, or use “Add folder…”.</source>
        <translation>Ordner oder Dateien hierher ziehen oder „Ordner hinzufügen …“ verwenden.</translation>
    </message>
    <message>
        <source>Starting the engine…</source>
        <translation>Die Engine startet …</translation>
    </message>
    <message>
        <source>Identifying files: %v / %m</source>
        <translation>Dateien werden erkannt: %v / %m</translation>
    </message>
    <message>
        <source>Everything is paused; new jobs wait too. &lt;a href=&quot;resume&quot;&gt;Resume all&lt;/a&gt;</source>
        <translation>Alles ist pausiert; neue Aufträge warten auch. &lt;a href=&quot;resume&quot;&gt;Alle fortsetzen&lt;/a&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Review (%n)</source>
        <translation>
            <numerusform>Prüfen (%n)</numerusform>
            <numerusform>Prüfen (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Engine running.</source>
        <translation>Die Engine läuft.</translation>
    </message>
    <message>
        <source>{action} ({shortcut})</source>
        <translation>{action} ({shortcut})</translation>
    </message>
    <message>
        <source>Sidecar — Paused</source>
        <translation>Sidecar — Pausiert</translation>
    </message>
    <message>
        <source>The library could not be opened.</source>
        <translation>Die Bibliothek konnte nicht geöffnet werden.</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s), {running} running</source>
        <translation>
            <numerusform>%n Auftrag, {running} laufen</numerusform>
            <numerusform>%n Aufträge, {running} laufen</numerusform>
        </translation>
    </message>
    <message>
        <source>Recording files: %v / %m</source>
        <translation>Dateien werden erfasst: %v / %m</translation>
    </message>
    <message>
        <source>Finding files: %v found</source>
        <translation>Dateien werden gesucht: %v gefunden</translation>
    </message>
    <message numerus="yes">
        <source>; %n file(s) not added: {message}</source>
        <translation>
            <numerusform>; %n Datei nicht hinzugefügt: {message}</numerusform>
            <numerusform>; %n Dateien nicht hinzugefügt: {message}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; left out %n system/hidden file(s) or folder(s) (Settings → Scanning)</source>
        <translation>
            <numerusform>; %n System- oder versteckte Datei bzw. Ordner ausgelassen (Einstellungen → Durchsuchen)</numerusform>
            <numerusform>; %n System- oder versteckte Dateien bzw. Ordner ausgelassen (Einstellungen → Durchsuchen)</numerusform>
        </translation>
    </message>
    <message>
        <source> — no videos, audio or images in it, so there is nothing to do</source>
        <translation> — keine Videos, Audiodateien oder Bilder darin, also nichts zu tun</translation>
    </message>
    <message>
        <source> — everything is paused: it starts after Resume all</source>
        <translation> — alles ist pausiert: er startet nach „Alle fortsetzen“</translation>
    </message>
    <message>
        <source>Added {folder}: {total} to do, {skipped} skipped{note}</source>
        <translation>{folder} hinzugefügt: {total} zu erledigen, {skipped} übersprungen{note}</translation>
    </message>
    <message>
        <source>Scanning {names}…</source>
        <translation>{names} wird durchsucht …</translation>
    </message>
    <message>
        <source>Add a folder</source>
        <translation>Ordner hinzufügen</translation>
    </message>
    <message>
        <source>Add files</source>
        <translation>Dateien hinzufügen</translation>
    </message>
    <message>
        <source>Settings are still loading.</source>
        <translation>Die Einstellungen werden noch geladen.</translation>
    </message>
    <message>
        <source>Sidecar keeps working</source>
        <translation>Sidecar arbeitet weiter</translation>
    </message>
    <message>
        <source>Sidecar goes on processing in the background. Click its tray icon to open the window; Quit is in the icon&apos;s menu (Settings → Window to quit on close).</source>
        <translation>Sidecar verarbeitet im Hintergrund weiter. Klicken Sie auf das Symbol im Infobereich, um das Fenster zu öffnen; „Beenden“ steht in seinem Menü (Einstellungen → Fenster, um beim Schließen zu beenden).</translation>
    </message>
</context>
<context>
    <name>QueueModel</name>
    <message>
        <source>chosen by you</source>
        <extracomment>Why a stream was used, as the Audio column&apos;s tooltip says it (keys: ``audio_stream.reason``).</extracomment>
        <translation>von Ihnen gewählt</translation>
    </message>
    <message>
        <source>the chosen track is missing; chosen by rule</source>
        <translation>die gewählte Spur fehlt; nach Regel gewählt</translation>
    </message>
    <message>
        <source>in the source language</source>
        <translation>in der Ausgangssprache</translation>
    </message>
    <message>
        <source>the file&apos;s default track</source>
        <translation>die Standardspur der Datei</translation>
    </message>
    <message>
        <source>the first dialogue track</source>
        <translation>die erste Dialogspur</translation>
    </message>
    <message>
        <source>the only track</source>
        <translation>die einzige Spur</translation>
    </message>
    <message>
        <source>Track {track} of {tracks}</source>
        <translation>Spur {track} von {tracks}</translation>
    </message>
    <message>
        <source>{tagged} track; heard {heard}</source>
        <translation>Spur als {tagged} markiert; gehört: {heard}</translation>
    </message>
    <message>
        <source>{language}, detected</source>
        <translation>{language}, erkannt</translation>
    </message>
    <message>
        <source>Audio track {track} of {tracks}: {reason}.</source>
        <translation>Tonspur {track} von {tracks}: {reason}.</translation>
    </message>
    <message>
        <source>The file tags its language as {language}.</source>
        <translation>Die Datei kennzeichnet ihre Sprache als {language}.</translation>
    </message>
    <message>
        <source>The file does not tag its language (“und”: undetermined).</source>
        <translation>Die Datei kennzeichnet ihre Sprache nicht („und“: unbestimmt).</translation>
    </message>
    <message>
        <source>Heard in the speech: {language} ({percent} % sure).</source>
        <translation>In der Sprache erkannt: {language} ({percent} % sicher).</translation>
    </message>
</context>
<context>
    <name>QueueView</name>
    <message>
        <source>Select a job to see its items.</source>
        <translation>Wählen Sie einen Auftrag, um seine Einträge zu sehen.</translation>
    </message>
    <message>
        <source>Pause job</source>
        <translation>Auftrag anhalten</translation>
    </message>
    <message>
        <source>Resume job</source>
        <translation>Auftrag fortsetzen</translation>
    </message>
    <message>
        <source>Retry failed</source>
        <translation>Fehlgeschlagene wiederholen</translation>
    </message>
    <message>
        <source>Cancel job</source>
        <translation>Auftrag abbrechen</translation>
    </message>
    <message>
        <source>Translate again</source>
        <translation>Erneut übersetzen</translation>
    </message>
    <message>
        <source>Translate the items that got no translation again, with the translator set now (Settings → Models)</source>
        <translation>Die Einträge ohne Übersetzung erneut übersetzen, mit dem jetzt eingestellten Übersetzer (Einstellungen → Modelle)</translation>
    </message>
    <message>
        <source>Retry item</source>
        <translation>Eintrag wiederholen</translation>
    </message>
    <message>
        <source>Open file</source>
        <translation>Datei öffnen</translation>
    </message>
    <message>
        <source>Subtitles…</source>
        <translation>Untertitel…</translation>
    </message>
    <message>
        <source>Read and fix the subtitles beside the video, with playback</source>
        <translation>Die Untertitel neben dem Video mit Wiedergabe lesen und korrigieren</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>Im Ordner zeigen</translation>
    </message>
    <message>
        <source>Select an item to read its details.</source>
        <translation>Wählen Sie ein Element, um seine Details zu lesen.</translation>
    </message>
    <message>
        <source>Everything is paused: use Resume all</source>
        <translation>Alles ist pausiert: „Alle fortsetzen“ verwenden</translation>
    </message>
    <message>
        <source>Audio track</source>
        <translation>Tonspur</translation>
    </message>
    <message>
        <source>Remove the job for {folder} and its work in progress?
Files next to your media are not touched.</source>
        <translation>Den Auftrag für {folder} samt der laufenden Arbeit entfernen?
Dateien neben Ihren Medien bleiben unberührt.</translation>
    </message>
    <message>
        <source>Nothing to open it with</source>
        <translation>Kein Programm zum Öffnen</translation>
    </message>
    <message>
        <source>This desktop has no application set to open {path}.</source>
        <translation>Auf diesem Desktop ist kein Programm zum Öffnen von {path} eingerichtet.</translation>
    </message>
    <message>
        <source>Its location is selectable below; set a default application for this kind of file (or a file manager) in your desktop&apos;s settings.</source>
        <translation>Der Speicherort ist unten auswählbar; legen Sie in den Desktop-Einstellungen ein Standardprogramm für diese Dateiart (oder einen Dateimanager) fest.</translation>
    </message>
</context>
<context>
    <name>ReviewPanel</name>
    <message>
        <source>Applied</source>
        <translation>Übernommen</translation>
    </message>
    <message>
        <source>Keep the file as it is now; the step counts as done.</source>
        <translation>Die Datei bleibt, wie sie jetzt ist; der Schritt gilt als erledigt.</translation>
    </message>
    <message>
        <source>Not applied</source>
        <translation>Nicht übernommen</translation>
    </message>
    <message>
        <source>Write Sidecar&apos;s version again.</source>
        <translation>Die Fassung von Sidecar erneut schreiben.</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>Überspringen</translation>
    </message>
    <message>
        <source>Give up on this item (a reason is required).</source>
        <translation>Diesen Eintrag aufgeben (ein Grund ist nötig).</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Quelle:</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>Ziel:</translation>
    </message>
    <message>
        <source>Details:</source>
        <translation>Einzelheiten:</translation>
    </message>
    <message>
        <source>Why:</source>
        <translation>Warum zur Prüfung:</translation>
    </message>
    <message>
        <source>Reason (recorded with the decision)</source>
        <translation>Grund (wird mit der Entscheidung gespeichert)</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>Begründung:</translation>
    </message>
    <message>
        <source>Nothing awaits review.</source>
        <translation>Nichts wartet auf Prüfung.</translation>
    </message>
    <message>
        <source>When Sidecar cannot prove what happened to a file it wrote (the disk was unplugged, someone edited it), the file waits here for your decision.</source>
        <translation>Wenn Sidecar nicht belegen kann, was mit einer geschriebenen Datei geschah (Laufwerk getrennt, jemand hat sie bearbeitet), wartet die Datei hier auf Ihre Entscheidung.</translation>
    </message>
    <message>
        <source>{name}
    in {folder}</source>
        <translation>{name}
    in {folder}</translation>
    </message>
    <message>
        <source>sha256 written {written}, found {found}; attempts {attempts}; revision {revision}</source>
        <translation>geschriebener sha256 {written}, gefunden {found}; Versuche {attempts}; Revision {revision}</translation>
    </message>
    <message>
        <source>(file missing)</source>
        <translation>(Datei fehlt)</translation>
    </message>
    <message>
        <source>Give a reason to skip this item.</source>
        <translation>Geben Sie einen Grund an, um diesen Eintrag zu überspringen.</translation>
    </message>
    <message>
        <source>{name}: recorded “{decision}” (revision {revision}).</source>
        <translation>{name}: „{decision}“ gespeichert (Revision {revision}).</translation>
    </message>
    <message>
        <source>Your decision was not recorded: {message}.</source>
        <translation>Ihre Entscheidung wurde nicht gespeichert: {message}.</translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <source>Search images and dialogue — “cat wearing sunglasses”, “invoice 4471”…</source>
        <translation>Bilder und Dialoge durchsuchen – „Katze mit Sonnenbrille“, „Rechnung 4471“ …</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suchen</translation>
    </message>
    <message>
        <source>Find similar</source>
        <translation>Ähnliche finden</translation>
    </message>
    <message>
        <source>Images that look like the selected one</source>
        <translation>Bilder, die dem ausgewählten ähneln</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>Bilder</translation>
    </message>
    <message>
        <source>Dialogue</source>
        <translation>Dialoge</translation>
    </message>
    <message>
        <source>Search images and dialogue — “invoice 4471”, “train to Berlin”…</source>
        <translation>Bilder und Dialoge durchsuchen — „Rechnung 4471“, „Zug nach Berlin“ …</translation>
    </message>
    <message>
        <source>Searching for “{query}”…</source>
        <translation>Suche nach „{query}“ …</translation>
    </message>
    <message>
        <source>Images similar to {name}…</source>
        <translation>Bilder ähnlich wie {name} …</translation>
    </message>
    <message numerus="yes">
        <source>Images (%n)</source>
        <translation>
            <numerusform>Bilder (%n)</numerusform>
            <numerusform>Bilder (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Dialogue (%n)</source>
        <translation>
            <numerusform>Dialoge (%n)</numerusform>
            <numerusform>Dialoge (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n result(s) for “{query}”</source>
        <translation>
            <numerusform>%n Treffer für „{query}“</numerusform>
            <numerusform>%n Treffer für „{query}“</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing matches “{query}”.</source>
        <translation>Nichts passt zu „{query}“.</translation>
    </message>
    <message>
        <source>Matched the translation of “{text}”</source>
        <translation>Gefunden in der Übersetzung von „{text}“</translation>
    </message>
    <message>
        <source>Matched the query translated as “{text}”</source>
        <translation>Gefunden mit der übersetzten Suche „{text}“</translation>
    </message>
    <message>
        <source>Matched by meaning</source>
        <translation>Gefunden nach Bedeutung</translation>
    </message>
    <message>
        <source>Matched by what the picture shows</source>
        <translation>Gefunden nach dem, was das Bild zeigt</translation>
    </message>
    <message>
        <source>Matched the words</source>
        <translation>Gefunden nach den Wörtern</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Translate to:</source>
        <translation>Übersetzen in:</translation>
    </message>
    <message>
        <source>Spoken language:</source>
        <translation>Gesprochene Sprache:</translation>
    </message>
    <message>
        <source>The language spoken in the videos; empty: detected in each file</source>
        <translation>Die in den Videos gesprochene Sprache; leer: in jeder Datei erkannt</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>Automatisch erkennen</translation>
    </message>
    <message>
        <source>The language subtitles are translated into; empty: transcripts only</source>
        <translation>Die Sprache, in die Untertitel übersetzt werden; leer: nur Transkripte</translation>
    </message>
    <message>
        <source>Don&apos;t translate</source>
        <translation>Nicht übersetzen</translation>
    </message>
    <message>
        <source>Subtitle names:</source>
        <translation>Untertitel-Dateinamen:</translation>
    </message>
    <message>
        <source>How subtitle files are named: Movie.zh.srt for media servers, or Movie.CN.srt</source>
        <translation>Wie Untertiteldateien heißen: Movie.zh.srt für Medienserver oder Movie.CN.srt</translation>
    </message>
    <message>
        <source>Existing files:</source>
        <translation>Vorhandene Dateien:</translation>
    </message>
    <message>
        <source>What a new job does where a subtitle or sidecar it would write already exists</source>
        <translation>Was ein neuer Auftrag tut, wo ein Untertitel oder eine Begleitdatei, die er schreiben würde, schon existiert</translation>
    </message>
    <message>
        <source>Skip: leave the existing file alone</source>
        <translation>Überspringen: die vorhandene Datei bleibt unangetastet</translation>
    </message>
    <message>
        <source>Overwrite it</source>
        <translation>Überschreiben</translation>
    </message>
    <message>
        <source>Keep both (Movie.zh.1.srt)</source>
        <translation>Beide behalten (Movie.zh.1.srt)</translation>
    </message>
    <message>
        <source>Write photo.jpg.sidecar.json next to each image</source>
        <translation>Neben jedes Bild eine photo.jpg.sidecar.json schreiben</translation>
    </message>
    <message>
        <source>An indexed image gets a JSON file beside it with what Sidecar found in it</source>
        <translation>Ein indiziertes Bild bekommt daneben eine JSON-Datei mit dem, was Sidecar darin gefunden hat</translation>
    </message>
    <message>
        <source>Skip videos that already carry text subtitles in the target language</source>
        <translation>Videos überspringen, die schon Textuntertitel in der Zielsprache enthalten</translation>
    </message>
    <message>
        <source>A text subtitle stream in the target language inside a video counts as subtitled</source>
        <translation>Ein Textuntertitel-Stream in der Zielsprache im Video zählt als untertitelt</translation>
    </message>
    <message>
        <source>Subtitle rules:</source>
        <translation>Untertitelregeln:</translation>
    </message>
    <message>
        <source>How cues are cut: Netflix&apos;s style guide per language (42 characters a line, Chinese 16, Japanese 13; 2 lines; 5/6–7 s; 20 characters/s in English, 17 in most languages), relaxed (longer lines, faster reading) or custom</source>
        <translation>Wie Untertitel geschnitten werden: Netflix-Styleguide je Sprache (42 Zeichen pro Zeile, Chinesisch 16, Japanisch 13; 2 Zeilen; 5/6–7 s; 20 Zeichen/s auf Englisch, 17 in den meisten Sprachen), locker (längere Zeilen, schnelleres Lesen) oder eigene Werte</translation>
    </message>
    <message>
        <source>Netflix style guide</source>
        <translation>Netflix-Styleguide</translation>
    </message>
    <message>
        <source>Relaxed</source>
        <translation>Locker</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Eigene Werte</translation>
    </message>
    <message>
        <source>Line length (custom):</source>
        <translation>Zeilenlänge (eigene):</translation>
    </message>
    <message>
        <source>The custom rules&apos; line length for Latin text; Chinese, Japanese and Korean keep their share</source>
        <translation>Zeilenlänge der eigenen Regeln für lateinische Schrift; Chinesisch, Japanisch und Koreanisch im gleichen Verhältnis</translation>
    </message>
    <message>
        <source>Reading speed (custom):</source>
        <translation>Lesetempo (eigene):</translation>
    </message>
    <message>
        <source>The custom rules&apos; characters per second; translations faster than this are flagged</source>
        <translation>Zeichen pro Sekunde der eigenen Regeln; schnellere Übersetzungen werden markiert</translation>
    </message>
    <message>
        <source>characters/s</source>
        <translation>Zeichen/s</translation>
    </message>
    <message>
        <source>Also write WebVTT (.vtt) beside each .srt</source>
        <translation>Neben jede .srt auch WebVTT (.vtt) schreiben</translation>
    </message>
    <message>
        <source>For browsers and players that read WebVTT: Movie.ja.vtt beside Movie.ja.srt</source>
        <translation>Für Browser und Player, die WebVTT lesen: Movie.ja.vtt neben Movie.ja.srt</translation>
    </message>
    <message>
        <source>Keep sound tags such as [music], ♪ and (applause)</source>
        <translation>Geräuschangaben wie [music], ♪ und (applause) behalten</translation>
    </message>
    <message>
        <source>Off: sound tags are removed from the subtitles, and a cue holding nothing else is left out</source>
        <translation>Aus: Geräuschangaben werden aus den Untertiteln entfernt, und ein Untertitel, der nur daraus besteht, entfällt</translation>
    </message>
    <message>
        <source>Speaker labels:</source>
        <translation>Sprecher kennzeichnen:</translation>
    </message>
    <message>
        <source>Tell voices apart: a style per speaker in the bilingual subtitles, dialogue dashes when two share a cue, `[Speaker 1]` in transcripts. Needs the speaker model (`sidecar models install speakers-ge2e`)</source>
        <translation>Stimmen unterscheiden: ein Stil je Sprecher in den zweisprachigen Untertiteln, Dialogstriche, wenn sich zwei einen Untertitel teilen, `[Speaker 1]` in Transkripten. Braucht das Sprechermodell (`sidecar models install speakers-ge2e`)</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Count the speakers</source>
        <translation>Sprecher zählen</translation>
    </message>
    <message>
        <source>Translation server:</source>
        <translation>Übersetzungsserver:</translation>
    </message>
    <message>
        <source>An OpenAI-compatible server that translates the subtitle text; empty: translate on this computer</source>
        <translation>Ein OpenAI-kompatibler Server, der den Untertiteltext übersetzt; leer: auf diesem Computer übersetzen</translation>
    </message>
    <message>
        <source>empty: translate on this computer</source>
        <translation>leer: auf diesem Computer übersetzen</translation>
    </message>
    <message>
        <source>Model on the server:</source>
        <translation>Modell auf dem Server:</translation>
    </message>
    <message>
        <source>The model the translation server is asked for; empty: the server&apos;s own choice</source>
        <translation>Das Modell, das beim Übersetzungsserver angefragt wird; leer: die Wahl des Servers</translation>
    </message>
    <message>
        <source>empty: the server&apos;s default</source>
        <translation>leer: Standard des Servers</translation>
    </message>
    <message>
        <source>Names and terms:</source>
        <translation>Namen und Begriffe:</translation>
    </message>
    <message>
        <source>The library&apos;s own words: speech recognition hears each term as written and a translation must render it as given; the terms a job is given join these</source>
        <translation>Die eigenen Wörter der Bibliothek: Die Spracherkennung hört jeden Begriff in dieser Schreibweise, und eine Übersetzung muss ihn wie angegeben wiedergeben; die Begriffe, die ein Auftrag mitbekommt, kommen hinzu</translation>
    </message>
    <message>
        <source>Term</source>
        <translation>Begriff</translation>
    </message>
    <message>
        <source>Rendering in translations (optional)</source>
        <translation>Schreibweise in Übersetzungen (optional)</translation>
    </message>
    <message>
        <source>Workers:</source>
        <translation>Worker:</translation>
    </message>
    <message>
        <source>How many steps run at once</source>
        <translation>Wie viele Schritte gleichzeitig laufen</translation>
    </message>
    <message>
        <source>GPU memory budget:</source>
        <translation>GPU-Speicherbudget:</translation>
    </message>
    <message>
        <source>How much of the GPU&apos;s memory the models may take together</source>
        <translation>Wie viel GPU-Speicher die Modelle zusammen belegen dürfen</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
    <message>
        <source>Stop a stalled stage after:</source>
        <translation>Hängende Stufe stoppen nach:</translation>
    </message>
    <message>
        <source>A stage with no progress for this long is stopped (stalled)</source>
        <translation>Eine Stufe ohne Fortschritt für diese Dauer wird gestoppt (hängt)</translation>
    </message>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>Images per batch:</source>
        <translation>Bilder pro Stapel:</translation>
    </message>
    <message>
        <source>How many images an image stage (captions, text, search vectors) hands its model at once; more is faster on a GPU and takes more memory</source>
        <translation>Wie viele Bilder eine Bildstufe (Beschreibungen, Text, Suchvektoren) ihrem Modell auf einmal gibt; mehr ist auf einer GPU schneller und braucht mehr Speicher</translation>
    </message>
    <message>
        <source>Files per model group:</source>
        <translation>Dateien pro Modellgruppe:</translation>
    </message>
    <message>
        <source>How many files are transcribed before they are translated, so each model loads once a group</source>
        <translation>Wie viele Dateien transkribiert werden, bevor sie übersetzt werden, damit jedes Modell nur einmal pro Gruppe lädt</translation>
    </message>
    <message>
        <source>Library database:</source>
        <translation>Bibliotheksdatenbank:</translation>
    </message>
    <message>
        <source>A library shared by several machines: postgresql+psycopg://user@server/sidecar; empty: the library on this computer</source>
        <translation>Eine Bibliothek, die mehrere Rechner teilen: postgresql+psycopg://user@server/sidecar; leer: die Bibliothek auf diesem Computer</translation>
    </message>
    <message>
        <source>empty: the library on this computer</source>
        <translation>leer: die Bibliothek auf diesem Computer</translation>
    </message>
    <message>
        <source>Work on weekdays:</source>
        <translation>Arbeiten an Werktagen:</translation>
    </message>
    <message>
        <source>When Sidecar works from Monday to Friday</source>
        <translation>Wann Sidecar von Montag bis Freitag arbeitet</translation>
    </message>
    <message>
        <source>Work on weekends:</source>
        <translation>Arbeiten am Wochenende:</translation>
    </message>
    <message>
        <source>When Sidecar works on Saturday and Sunday</source>
        <translation>Wann Sidecar am Samstag und Sonntag arbeitet</translation>
    </message>
    <message>
        <source>On battery:</source>
        <translation>Im Akkubetrieb:</translation>
    </message>
    <message>
        <source>What Sidecar does while the computer runs on its battery</source>
        <translation>Was Sidecar tut, während der Computer mit Akku läuft</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Keep going</source>
        <translation>Weiterarbeiten</translation>
    </message>
    <message>
        <source>Pause below a charge</source>
        <translation>Unter einem Ladestand pausieren</translation>
    </message>
    <message>
        <source>Pause below:</source>
        <translation>Pausieren unter:</translation>
    </message>
    <message>
        <source>On battery, work pauses once the charge is below this</source>
        <translation>Im Akkubetrieb pausiert die Arbeit, sobald der Ladestand darunter liegt</translation>
    </message>
    <message>
        <source>Use at most:</source>
        <translation>Höchstens nutzen:</translation>
    </message>
    <message>
        <source>Cores for the workers and each model&apos;s threads</source>
        <translation>Kerne für die Worker und die Threads jedes Modells</translation>
    </message>
    <message>
        <source>cores</source>
        <translation>Kerne</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>Pause while I use the computer</source>
        <translation>Pausieren, während ich den Computer benutze</translation>
    </message>
    <message>
        <source>Work waits while there was keyboard or mouse input lately</source>
        <translation>Die Arbeit wartet, solange es kürzlich Tastatur- oder Mauseingaben gab</translation>
    </message>
    <message>
        <source>Input in the last:</source>
        <translation>Eingabe in den letzten:</translation>
    </message>
    <message>
        <source>How recent input must be to count as using the computer</source>
        <translation>Wie kurz eine Eingabe zurückliegen muss, damit der Computer als benutzt gilt</translation>
    </message>
    <message>
        <source>min</source>
        <translation>min</translation>
    </message>
    <message>
        <source>Tell me when a job finishes</source>
        <translation>Benachrichtigen, wenn ein Auftrag fertig ist</translation>
    </message>
    <message>
        <source>A desktop notification when a job is done</source>
        <translation>Eine Desktop-Benachrichtigung, wenn ein Auftrag erledigt ist</translation>
    </message>
    <message>
        <source>Tell me when something needs my decision</source>
        <translation>Benachrichtigen, wenn etwas meine Entscheidung braucht</translation>
    </message>
    <message>
        <source>A desktop notification when a file waits in Review</source>
        <translation>Eine Desktop-Benachrichtigung, wenn eine Datei in „Prüfen“ wartet</translation>
    </message>
    <message>
        <source>Tell me when items fail</source>
        <translation>Benachrichtigen, wenn Dateien scheitern</translation>
    </message>
    <message>
        <source>A desktop notification when files fail</source>
        <translation>Eine Desktop-Benachrichtigung, wenn Dateien scheitern</translation>
    </message>
    <message>
        <source>Start Sidecar in the tray when I log in</source>
        <translation>Sidecar beim Anmelden im Infobereich starten</translation>
    </message>
    <message>
        <source>Sidecar starts in the tray when you log in</source>
        <translation>Sidecar startet beim Anmelden im Infobereich</translation>
    </message>
    <message>
        <source>Leave out:</source>
        <translation>Auslassen:</translation>
    </message>
    <message>
        <source>One name a line; * and ? match any text; a name ending in / matches folders only</source>
        <translation>Ein Name pro Zeile; * und ? passen auf beliebigen Text; ein Name mit / am Ende passt nur auf Ordner</translation>
    </message>
    <message>
        <source>Watched folders:</source>
        <translation>Überwachte Ordner:</translation>
    </message>
    <message>
        <source>New, changed, moved and deleted media in these folders is followed by itself</source>
        <translation>Neue, geänderte, verschobene und gelöschte Medien in diesen Ordnern werden von selbst nachgeführt</translation>
    </message>
    <message>
        <source>Wait for a file to settle:</source>
        <translation>Warten, bis eine Datei ruht:</translation>
    </message>
    <message>
        <source>A watched file is queued once its size and time held still this long</source>
        <translation>Eine überwachte Datei kommt in die Warteschlange, sobald Größe und Zeitstempel so lange unverändert blieben</translation>
    </message>
    <message>
        <source>Server address:</source>
        <translation>Serveradresse:</translation>
    </message>
    <message>
        <source>Where `sidecar serve` listens; any address but loopback needs serve_token</source>
        <translation>Wo `sidecar serve` lauscht; jede Adresse außer Loopback braucht serve_token</translation>
    </message>
    <message>
        <source>Server port:</source>
        <translation>Serverport:</translation>
    </message>
    <message>
        <source>The port `sidecar serve` listens on</source>
        <translation>Der Port, auf dem `sidecar serve` lauscht</translation>
    </message>
    <message>
        <source>Server token:</source>
        <translation>Server-Token:</translation>
    </message>
    <message>
        <source>The token clients send (Authorization: Bearer, the URL&apos;s password, or ?token=); required off loopback</source>
        <translation>Das Token, das Clients senden (Authorization: Bearer, Passwort der URL oder ?token=); außerhalb von Loopback Pflicht</translation>
    </message>
    <message>
        <source>Largest upload:</source>
        <translation>Größter Upload:</translation>
    </message>
    <message>
        <source>Uploads to /asr and /detect-language larger than this are refused (413)</source>
        <translation>Größere Uploads an /asr und /detect-language werden abgelehnt (413)</translation>
    </message>
    <message>
        <source>Media server paths:</source>
        <translation>Pfade des Medienservers:</translation>
    </message>
    <message>
        <source>SERVER_PREFIX=LOCAL_PREFIX lines: a media server&apos;s path of a file as a path here</source>
        <translation>Zeilen SERVER_PRÄFIX=LOKALES_PRÄFIX: der Pfad einer Datei beim Medienserver als Pfad hier</translation>
    </message>
    <message>
        <source>Jellyfin address:</source>
        <translation>Jellyfin-Adresse:</translation>
    </message>
    <message>
        <source>Jellyfin&apos;s URL, asked to refresh an item</source>
        <translation>Die URL von Jellyfin, die gebeten wird, einen Eintrag zu aktualisieren</translation>
    </message>
    <message>
        <source>Jellyfin API key:</source>
        <translation>Jellyfin-API-Schlüssel:</translation>
    </message>
    <message>
        <source>An API key from Jellyfin&apos;s dashboard</source>
        <translation>Ein API-Schlüssel aus dem Dashboard von Jellyfin</translation>
    </message>
    <message>
        <source>Emby address:</source>
        <translation>Emby-Adresse:</translation>
    </message>
    <message>
        <source>Emby&apos;s URL, asked to refresh an item</source>
        <translation>Die URL von Emby, die gebeten wird, einen Eintrag zu aktualisieren</translation>
    </message>
    <message>
        <source>Emby API key:</source>
        <translation>Emby-API-Schlüssel:</translation>
    </message>
    <message>
        <source>An API key from Emby&apos;s settings</source>
        <translation>Ein API-Schlüssel aus den Einstellungen von Emby</translation>
    </message>
    <message>
        <source>Plex address:</source>
        <translation>Plex-Adresse:</translation>
    </message>
    <message>
        <source>Plex&apos;s URL, asked for a new item&apos;s file and to refresh it</source>
        <translation>Die URL von Plex, gefragt nach der Datei eines neuen Eintrags und gebeten, ihn zu aktualisieren</translation>
    </message>
    <message>
        <source>Plex token:</source>
        <translation>Plex-Token:</translation>
    </message>
    <message>
        <source>Your X-Plex-Token</source>
        <translation>Ihr X-Plex-Token</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Sprache:</translation>
    </message>
    <message>
        <source>The language of Sidecar&apos;s windows; System follows the computer&apos;s</source>
        <translation>Die Sprache der Fenster von Sidecar; System folgt der des Computers</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Closing the window keeps processing in the tray</source>
        <translation>Beim Schließen des Fensters geht die Arbeit im Infobereich weiter</translation>
    </message>
    <message>
        <source>Sidecar keeps working in the tray after its window is closed</source>
        <translation>Sidecar arbeitet nach dem Schließen des Fensters im Infobereich weiter</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>New jobs will use the changed output settings; jobs already added keep the settings they were created with.</source>
        <translation>Neue Aufträge verwenden die geänderten Ausgabe-Einstellungen; bereits hinzugefügte behalten die Einstellungen, mit denen sie angelegt wurden.</translation>
    </message>
    <message>
        <source>New jobs leave out the changed list; watched folders follow it the next time Sidecar starts.</source>
        <translation>Neue Aufträge lassen die geänderte Liste aus; überwachte Ordner folgen ihr beim nächsten Start von Sidecar.</translation>
    </message>
    <message>
        <source>Sidecar shows the chosen language the next time it starts.</source>
        <translation>Sidecar zeigt die gewählte Sprache beim nächsten Start.</translation>
    </message>
    <message>
        <source>Sidecar opens the other library database the next time it starts.</source>
        <translation>Sidecar öffnet die andere Bibliotheksdatenbank beim nächsten Start.</translation>
    </message>
    <message>
        <source>Sidecar settings</source>
        <translation>Sidecar-Einstellungen</translation>
    </message>
    <message>
        <source>Media servers see no language in “CN”: use media-server unless your library already uses these names.</source>
        <translation>Medienserver erkennen in „CN“ keine Sprache: Nehmen Sie media-server, außer Ihre Bibliothek verwendet diese Namen bereits.</translation>
    </message>
    <message>
        <source>The library on this computer: {path}</source>
        <translation>Die Bibliothek auf diesem Computer: {path}</translation>
    </message>
    <message>
        <source>Restore defaults</source>
        <translation>Standard wiederherstellen</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Hinzufügen …</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Installed</source>
        <translation>Installiert</translation>
    </message>
    <message>
        <source>For</source>
        <translation>Wofür</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>In use</source>
        <translation>In Verwendung</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Lizenz</translation>
    </message>
    <message>
        <source>Install</source>
        <translation>Installieren</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Verwenden</translation>
    </message>
    <message>
        <source>Cancel install</source>
        <translation>Installation abbrechen</translation>
    </message>
    <message>
        <source>Download the selected model (an interrupted download resumes)</source>
        <translation>Das ausgewählte Modell herunterladen (ein unterbrochener Download wird fortgesetzt)</translation>
    </message>
    <message>
        <source>New jobs use the selected model for its role</source>
        <translation>Neue Aufträge verwenden das ausgewählte Modell für seine Aufgabe</translation>
    </message>
    <message>
        <source>Delete a downloaded model, or forget one you registered (its files stay)</source>
        <translation>Ein heruntergeladenes Modell löschen oder ein selbst eingetragenes vergessen (seine Dateien bleiben)</translation>
    </message>
    <message>
        <source>Install from file…</source>
        <translation>Aus Datei installieren…</translation>
    </message>
    <message>
        <source>A translation package (.argosmodel) downloaded on another computer: installed without internet, checked before it is used</source>
        <translation>Ein auf einem anderen Computer heruntergeladenes Übersetzungspaket (.argosmodel): ohne Internet installiert und vor der Verwendung geprüft</translation>
    </message>
    <message>
        <source>With both work windows set to “Not at all”, Sidecar never works: jobs wait for ever.</source>
        <translation>Sind beide Arbeitszeiten auf „Gar nicht“ gestellt, arbeitet Sidecar nie: Aufträge warten für immer.</translation>
    </message>
    <message>
        <source>{name} (placeholder)</source>
        <translation>{name} (Platzhalter)</translation>
    </message>
    <message>
        <source>{name} (recommended)</source>
        <translation>{name} (empfohlen)</translation>
    </message>
    <message>
        <source>A placeholder that comes with Sidecar so translation works without a download: most of its lines are wrong and Sidecar refuses them, so most videos get only their transcript. Install a recommended translation model, or set a translation server.</source>
        <translation>Ein Platzhalter, der mit Sidecar kommt, damit Übersetzen ohne Download geht: Die meisten seiner Zeilen sind falsch und Sidecar weist sie zurück, daher bekommen die meisten Videos nur ihr Transkript. Installieren Sie ein empfohlenes Übersetzungsmodell oder tragen Sie einen Übersetzungsserver ein.</translation>
    </message>
    <message>
        <source>Recommended: good enough on a CPU, with a licence that allows any use.</source>
        <translation>Empfohlen: gut genug auf einer CPU, mit einer Lizenz, die jede Nutzung erlaubt.</translation>
    </message>
    <message>
        <source>transcription</source>
        <translation>Transkription</translation>
    </message>
    <message>
        <source>translation</source>
        <translation>Übersetzung</translation>
    </message>
    <message>
        <source>text search over descriptions and dialogue</source>
        <translation>Textsuche in Beschreibungen und Dialogen</translation>
    </message>
    <message>
        <source>text recognition in images</source>
        <translation>Texterkennung in Bildern</translation>
    </message>
    <message>
        <source>image search by picture content (CLIP)</source>
        <translation>Bildsuche nach Bildinhalt (CLIP)</translation>
    </message>
    <message>
        <source>speaker labels in subtitles and transcripts</source>
        <translation>Sprecherkennzeichnung in Untertiteln und Transkripten</translation>
    </message>
    <message>
        <source>Install a translation package</source>
        <translation>Ein Übersetzungspaket installieren</translation>
    </message>
    <message>
        <source>Translation packages (*.argosmodel);;All files (*)</source>
        <translation>Übersetzungspakete (*.argosmodel);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Installing {name}…</source>
        <translation>{name} wird installiert…</translation>
    </message>
    <message>
        <source>Licence: {licence}.</source>
        <translation>Lizenz: {licence}.</translation>
    </message>
    <message>
        <source>Credit: {attribution}.</source>
        <translation>Urheber: {attribution}.</translation>
    </message>
    <message>
        <source>Unverified: no published checksum; the first download is pinned and every later one must match it.</source>
        <translation>Ungeprüft: keine veröffentlichte Prüfsumme; der erste Download wird festgehalten, jeder spätere muss ihm gleichen.</translation>
    </message>
    <message>
        <source>Used by itself for {pair} once installed (and through English for other pairs).</source>
        <translation>Wird nach der Installation von selbst für {pair} verwendet (und über Englisch für andere Paare).</translation>
    </message>
    <message>
        <source>Installing {name} failed: {why}</source>
        <translation>Installation von {name} fehlgeschlagen: {why}</translation>
    </message>
    <message>
        <source>Checking the translation server…</source>
        <translation>Übersetzungsserver wird geprüft …</translation>
    </message>
    <message>
        <source>Checking the library database…</source>
        <translation>Prüfe die Bibliotheksdatenbank…</translation>
    </message>
    <message>
        <source>Correct the address, or empty it to keep the library on this computer.</source>
        <translation>Korrigieren Sie die Adresse oder leeren Sie sie, um die Bibliothek auf diesem Computer zu behalten.</translation>
    </message>
    <message>
        <source>The translation server answers.</source>
        <translation>Der Übersetzungsserver antwortet.</translation>
    </message>
    <message>
        <source>The translation server does not answer: {reason}</source>
        <translation>Der Übersetzungsserver antwortet nicht: {reason}</translation>
    </message>
    <message>
        <source>Correct the address, or Save again to keep it (for a server you start later); jobs wait for it and then write the transcript alone.</source>
        <translation>Korrigieren Sie die Adresse oder speichern Sie erneut, um sie zu behalten (für einen Server, den Sie später starten); Aufträge warten auf ihn und schreiben dann nur das Transkript.</translation>
    </message>
    <message>
        <source>Output (new jobs)</source>
        <translation>Ausgabe (neue Aufträge)</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Übersetzung</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Output</source>
        <extracomment>The tabs and the sections on each, in order. A section builder takes the dialog and returns a self-contained widget; a declared section (:func:`declared`) shows the settings whose declaration names it, so a new setting needs no entry here.</extracomment>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>Glossar</translation>
    </message>
    <message>
        <source>Names and terms of your library (characters, products, places): speech recognition listens for them as written, and translations must render them as given. New jobs use this list together with their own terms.</source>
        <translation>Namen und Begriffe Ihrer Bibliothek (Figuren, Produkte, Orte): Die Spracherkennung achtet auf sie in dieser Schreibweise, und Übersetzungen müssen sie wie angegeben wiedergeben. Neue Aufträge verwenden diese Liste zusammen mit ihren eigenen Begriffen.</translation>
    </message>
    <message>
        <source>Processing</source>
        <translation>Verarbeitung</translation>
    </message>
    <message>
        <source>Schedule &amp; power</source>
        <translation>Zeitplan und Energie</translation>
    </message>
    <message>
        <source>Outside these hours the running step stops at its next checkpoint (its progress is kept) and nothing new starts.</source>
        <translation>Außerhalb dieser Zeiten hält der laufende Schritt am nächsten Prüfpunkt an (sein Fortschritt bleibt erhalten), und nichts Neues beginnt.</translation>
    </message>
    <message>
        <source>Folders</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Library database</source>
        <translation>Bibliotheksdatenbank</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>Bazarr and media servers</source>
        <translation>Bazarr und Medienserver</translation>
    </message>
    <message>
        <source>Read by `sidecar serve` when it starts: Bazarr&apos;s Whisper provider, and Jellyfin, Emby or Plex told of new files and asked to refresh them (README: With Jellyfin, Plex, Emby and Bazarr).</source>
        <translation>Von `sidecar serve` beim Start gelesen: der Whisper-Anbieter von Bazarr sowie Jellyfin, Emby oder Plex, die neue Dateien melden und um Aktualisierung gebeten werden (README: With Jellyfin, Plex, Emby and Bazarr).</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>The language of Sidecar&apos;s windows changes the next time Sidecar starts.</source>
        <translation>Die Sprache der Fenster von Sidecar ändert sich beim nächsten Start.</translation>
    </message>
    <message>
        <source>Scanning</source>
        <translation>Durchsuchen</translation>
    </message>
    <message>
        <source>Left out of every added or watched folder (system and hidden files, as media servers skip them); the folder you add itself is always scanned:</source>
        <translation>In jedem hinzugefügten oder überwachten Ordner ausgelassen (System- und versteckte Dateien, wie Medienserver sie überspringen); der hinzugefügte Ordner selbst wird immer durchsucht:</translation>
    </message>
    <message>
        <source>Watched folders</source>
        <translation>Überwachte Ordner</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <source>The changed engine settings apply the next time Sidecar starts.</source>
        <translation>Die geänderten Engine-Einstellungen gelten ab dem nächsten Start von Sidecar.</translation>
    </message>
    <message>
        <source>Subtitle text (not audio, not file names) is sent to {endpoint} for translation.</source>
        <translation>Untertiteltext (kein Ton, keine Dateinamen) wird zur Übersetzung an {endpoint} geschickt.</translation>
    </message>
    <message>
        <source>Nothing leaves this computer.</source>
        <translation>Nichts verlässt diesen Computer.</translation>
    </message>
    <message>
        <source>Watch a folder</source>
        <translation>Ordner überwachen</translation>
    </message>
    <message>
        <source>downloading {percent}%</source>
        <translation>wird heruntergeladen, {percent} %</translation>
    </message>
    <message>
        <source>downloading</source>
        <translation>wird heruntergeladen</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>partly downloaded</source>
        <translation>teilweise heruntergeladen</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Downloading {name}…</source>
        <translation>{name} wird heruntergeladen …</translation>
    </message>
    <message>
        <source>{name} is installed. Choose “Use” to have new jobs use it.</source>
        <translation>{name} ist installiert. Wählen Sie „Verwenden“, damit neue Aufträge es nutzen.</translation>
    </message>
    <message>
        <source>Stopped downloading {name}. What arrived is kept: Install resumes from there.</source>
        <translation>Download von {name} angehalten. Das Geladene bleibt erhalten: Installieren setzt dort fort.</translation>
    </message>
</context>
<context>
    <name>States</name>
    <message>
        <source>Creating</source>
        <translation>Wird angelegt</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>In der Warteschlange</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Wartet</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Angehalten</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Zu prüfen</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Transcript only</source>
        <translation>Nur Transkript</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Fingerabdruck</translation>
    </message>
    <message>
        <source>Extract audio</source>
        <translation>Ton extrahieren</translation>
    </message>
    <message>
        <source>Transcribe</source>
        <translation>Transkribieren</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>Übersetzen</translation>
    </message>
    <message>
        <source>Render</source>
        <translation>Untertitel erzeugen</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>Dateien ablegen</translation>
    </message>
    <message>
        <source>Index dialogue</source>
        <translation>Dialog indexieren</translation>
    </message>
    <message>
        <source>Visual</source>
        <translation>Bildanalyse</translation>
    </message>
    <message>
        <source>Describe</source>
        <translation>Beschreiben</translation>
    </message>
    <message>
        <source>Text embedding</source>
        <translation>Textindex</translation>
    </message>
</context>
<context>
    <name>TranscriptEditor</name>
    <message>
        <source>Subtitles — {name}</source>
        <extracomment>Cues the translation&apos;s quality check left untranslated, by start time (they follow splits and merges) → the reason; a mark goes when the person edits that cue&apos;s translation.</extracomment>
        <translation>Untertitel — {name}</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Beginn</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Ende</translation>
    </message>
    <message>
        <source>Original</source>
        <translation>Originaltext</translation>
    </message>
    <message>
        <source>Speaker</source>
        <translation>Sprecher</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Übersetzung</translation>
    </message>
    <message>
        <source>Split at playhead</source>
        <translation>An der Abspielposition teilen</translation>
    </message>
    <message>
        <source>Merge with next</source>
        <translation>Mit nächstem zusammenführen</translation>
    </message>
    <message>
        <source>Shift selected</source>
        <translation>Auswahl verschieben</translation>
    </message>
    <message>
        <source>Rename speaker…</source>
        <translation>Sprecher umbenennen…</translation>
    </message>
    <message>
        <source>Give the selected line&apos;s speaker a name: every line of theirs takes it</source>
        <translation>Dem Sprecher der gewählten Zeile einen Namen geben: alle seine Zeilen übernehmen ihn</translation>
    </message>
    <message>
        <source>Re-translate</source>
        <translation>Neu übersetzen</translation>
    </message>
    <message>
        <source>Translate this video again from its transcript with another model</source>
        <translation>Dieses Video aus seinem Transkript mit einem anderen Modell neu übersetzen</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>This video cannot be played here ({message}); the subtitles can still be edited.</source>
        <translation>Dieses Video kann hier nicht abgespielt werden ({message}); die Untertitel lassen sich trotzdem bearbeiten.</translation>
    </message>
    <message>
        <source> (placeholder: poor translations)</source>
        <translation> (Platzhalter: schlechte Übersetzungen)</translation>
    </message>
    <message>
        <source> (in use)</source>
        <translation> (in Verwendung)</translation>
    </message>
    <message>
        <source>Re-translating with {model}: follow it in the queue, then open the subtitles again. Files you edited are not replaced without asking (Review).</source>
        <translation>Neue Übersetzung mit {model}: in der Warteschlange verfolgen und die Untertitel danach erneut öffnen. Von Ihnen bearbeitete Dateien werden nicht ohne Rückfrage ersetzt (Prüfung).</translation>
    </message>
    <message>
        <source>No translation: {why} Install a translation model or set a translation server, then choose Translate again in the queue.</source>
        <translation>Keine Übersetzung: {why} Installieren Sie ein Übersetzungsmodell oder tragen Sie einen Übersetzungsserver ein und wählen Sie dann in der Warteschlange „Erneut übersetzen“.</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s) failed the translation check and kept their original text: they are marked in the list. Type their translation and save.</source>
        <translation>
            <numerusform>%n Zeile hat die Übersetzungsprüfung nicht bestanden und behält ihren Originaltext: Sie ist in der Liste markiert. Geben Sie ihre Übersetzung ein und speichern Sie.</numerusform>
            <numerusform>%n Zeilen haben die Übersetzungsprüfung nicht bestanden und behalten ihren Originaltext: Sie sind in der Liste markiert. Geben Sie ihre Übersetzung ein und speichern Sie.</numerusform>
        </translation>
    </message>
    <message>
        <source>Not translated: this line failed the translation check ({reason}) and kept its original text.</source>
        <translation>Nicht übersetzt: Diese Zeile hat die Übersetzungsprüfung nicht bestanden ({reason}) und behält ihren Originaltext.</translation>
    </message>
    <message>
        <source>Move the playhead into the cue to split.</source>
        <translation>Setzen Sie die Abspielposition in den Eintrag, der geteilt werden soll.</translation>
    </message>
    <message>
        <source>The playhead is too close to the cue&apos;s start or end to split there.</source>
        <translation>Die Abspielposition liegt zu nah an Beginn oder Ende des Eintrags, um dort zu teilen.</translation>
    </message>
    <message>
        <source>Select a cue that has a next one to merge with.</source>
        <translation>Wählen Sie einen Eintrag, auf den noch einer folgt.</translation>
    </message>
    <message>
        <source>Select the cues to move and how far.</source>
        <translation>Wählen Sie die zu verschiebenden Einträge und wie weit.</translation>
    </message>
    <message>
        <source>Select a line of the speaker to rename.</source>
        <translation>Wählen Sie eine Zeile des Sprechers, den Sie umbenennen möchten.</translation>
    </message>
    <message>
        <source>Rename speaker</source>
        <translation>Sprecher umbenennen</translation>
    </message>
    <message>
        <source>Name for {speaker}:</source>
        <translation>Name für {speaker}:</translation>
    </message>
    <message>
        <source>A speaker needs a name.</source>
        <translation>Ein Sprecher braucht einen Namen.</translation>
    </message>
    <message>
        <source>Saved next to the video. Sidecar will not overwrite your edit: a later run asks in Review first.</source>
        <translation>Neben dem Video gespeichert. Sidecar überschreibt Ihre Änderung nicht: ein späterer Lauf fragt zuerst unter „Prüfung“.</translation>
    </message>
    <message>
        <source>{message} ({code})</source>
        <translation>{message} ({code})</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Unsaved edits</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>Save your edits to the subtitles of {name}?</source>
        <translation>Ihre Änderungen an den Untertiteln von {name} speichern?</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>Sidecar — starting</source>
        <translation>Sidecar — startet</translation>
    </message>
    <message>
        <source>Show / hide</source>
        <translation>Zeigen / Verbergen</translation>
    </message>
    <message>
        <source>Pause for 1 hour</source>
        <translation>1 Stunde pausieren</translation>
    </message>
    <message>
        <source>Pause until tomorrow morning</source>
        <translation>Bis morgen früh pausieren</translation>
    </message>
    <message>
        <source>Resume now</source>
        <translation>Jetzt fortsetzen</translation>
    </message>
    <message>
        <source>Pause all</source>
        <translation>Alle anhalten</translation>
    </message>
    <message>
        <source>Resume all</source>
        <translation>Alle fortsetzen</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>Welcome to Sidecar</source>
        <translation>Willkommen bei Sidecar</translation>
    </message>
    <message>
        <source>Drop folders of videos, audio recordings and photos. Sidecar works through them in the background: it subtitles every video, transcribes every recording and makes every photo searchable. Your files are never changed or moved; results are written next to them.</source>
        <translation>Ziehen Sie Ordner mit Videos, Audioaufnahmen und Fotos hierher. Sidecar arbeitet sie im Hintergrund ab: jedes Video bekommt Untertitel, jede Aufnahme ein Transkript, jedes Foto wird durchsuchbar. Ihre Dateien werden nie verändert oder verschoben; Ergebnisse landen daneben.</translation>
    </message>
    <message>
        <source>Languages and files</source>
        <translation>Sprachen und Dateien</translation>
    </message>
    <message>
        <source>Spoken language:</source>
        <translation>Gesprochene Sprache:</translation>
    </message>
    <message>
        <source>Subtitles in:</source>
        <translation>Untertitel auf:</translation>
    </message>
    <message>
        <source>Written next to your files:</source>
        <translation>Neben Ihren Dateien entsteht:</translation>
    </message>
    <message>
        <source>optional, e.g. ComfyUI; Jon Snow = Jon Schnee</source>
        <translation>optional, z. B. ComfyUI; Jon Snow = Jon Schnee</translation>
    </message>
    <message>
        <source>Names and terms said in your recordings, separated by semicolons: speech recognition listens for them as written</source>
        <translation>Namen und Begriffe, die in Ihren Aufnahmen vorkommen, durch Semikolons getrennt: Die Spracherkennung achtet auf sie in dieser Schreibweise</translation>
    </message>
    <message>
        <source>Names and terms:</source>
        <translation>Namen und Begriffe:</translation>
    </message>
    <message>
        <source>Later: transcripts now; each video waits for its translator, named in the list, and is translated by itself once it is installed.</source>
        <translation>Später: jetzt Transkripte; jedes Video wartet auf seinen Übersetzer (in der Liste genannt) und wird von selbst übersetzt, sobald er installiert ist.</translation>
    </message>
    <message>
        <source>An OpenAI-compatible server (LM Studio, Ollama, llama.cpp server…)</source>
        <translation>Ein OpenAI-kompatibler Dienst (LM Studio, Ollama, llama.cpp-Server…)</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Herunterladen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>model name (optional)</source>
        <translation>Modellname (optional)</translation>
    </message>
    <message>
        <source>The text of each subtitle is sent to this address to be translated; audio, pictures and file names stay on this computer.</source>
        <translation>Der Text jedes Untertitels wird zur Übersetzung an diese Adresse geschickt; Ton, Bilder und Dateinamen bleiben auf diesem Rechner.</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Übersetzung</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>Adresse:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <source>Drop folders or files here</source>
        <translation>Ordner oder Dateien hierher ziehen</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Ordner hinzufügen…</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>Überspringen</translation>
    </message>
    <message>
        <source>Keep the current settings; they can be changed any time in Settings.</source>
        <translation>Die aktuellen Einstellungen behalten; sie lassen sich jederzeit unter Einstellungen ändern.</translation>
    </message>
    <message>
        <source>size shown while downloading</source>
        <translation>Größe wird beim Herunterladen angezeigt</translation>
    </message>
    <message>
        <source>Download the {pair} translator ({name}, {size}, licence {licence}): translations made on this computer, no internet needed afterwards.</source>
        <translation>Den Übersetzer {pair} herunterladen ({name}, {size}, Lizenz {licence}): Übersetzungen auf diesem Computer, danach ohne Internet.</translation>
    </message>
    <message>
        <source>for Holiday.mp4: {videos}</source>
        <translation>für Holiday.mp4: {videos}</translation>
    </message>
    <message>
        <source>for Holiday.mp4 spoken in English: {videos}</source>
        <translation>für ein englischsprachiges Holiday.mp4: {videos}</translation>
    </message>
    <message>
        <source>for cat.jpg: {json} (what the photo shows and the text in it)</source>
        <translation>für cat.jpg: {json} (was das Foto zeigt und der Text darin)</translation>
    </message>
    <message>
        <source>Installed.</source>
        <translation>Installiert.</translation>
    </message>
    <message>
        <source>Stopped. Download again to resume where it stopped.</source>
        <translation>Angehalten. Erneut herunterladen setzt dort fort, wo es aufgehört hat.</translation>
    </message>
    <message>
        <source>The download failed ({code}); the status bar says why.</source>
        <translation>Der Download ist fehlgeschlagen ({code}); die Statusleiste nennt den Grund.</translation>
    </message>
</context>
<context>
    <name>WindowEdit</name>
    <message>
        <source>All day</source>
        <translation>Ganztägig</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Not at all</source>
        <translation>Gar nicht</translation>
    </message>
    <message>
        <source>to</source>
        <translation>bis</translation>
    </message>
</context>
<context>
    <name>WorkersModel</name>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>Arbeitsprozess</translation>
    </message>
    <message>
        <source>Desktop app</source>
        <translation>Desktop-App</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>{seconds} s ago</source>
        <translation>vor {seconds} s</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
</context>
<context>
    <name>WorkersView</name>
    <message>
        <source>Every Sidecar engine working on this library, on this computer and on others. One that stopped beating is shown grey; its work goes back to the queue.</source>
        <translation>Jede Sidecar-Engine, die an dieser Bibliothek arbeitet, auf diesem Computer und auf anderen. Eine, die kein Lebenszeichen mehr gibt, erscheint grau; ihre Arbeit kommt zurück in die Warteschlange.</translation>
    </message>
</context>
</TS>
