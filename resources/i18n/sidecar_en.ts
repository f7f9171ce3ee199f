<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en">
  <context>
    <name>JobCounts</name>
    <message numerus="yes">
      <source>all %n failed</source>
      <translation>
        <numerusform>all %n failed</numerusform>
        <numerusform>all %n failed</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>%n failed</source>
      <translation>
        <numerusform>%n failed</numerusform>
        <numerusform>%n failed</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>%n to decide</source>
      <translation>
        <numerusform>%n to decide</numerusform>
        <numerusform>%n to decide</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>%n not translated</source>
      <translation>
        <numerusform>%n not translated</numerusform>
        <numerusform>%n not translated</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>%n translation(s) to check</source>
      <translation>
        <numerusform>%n translation to check</numerusform>
        <numerusform>%n translations to check</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>JobsFacade</name>
    <message numerus="yes">
      <source>, %n to decide</source>
      <translation>
        <numerusform>, %n to decide</numerusform>
        <numerusform>, %n to decide</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>, %n failed</source>
      <translation>
        <numerusform>, %n failed</numerusform>
        <numerusform>, %n failed</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message numerus="yes">
      <source>Review (%n)</source>
      <translation>
        <numerusform>Review (%n)</numerusform>
        <numerusform>Review (%n)</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>%n job(s), {running} running</source>
      <translation>
        <numerusform>%n job, {running} running</numerusform>
        <numerusform>%n jobs, {running} running</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>; %n file(s) not added: {message}</source>
      <translation>
        <numerusform>; %n file not added: {message}</numerusform>
        <numerusform>; %n files not added: {message}</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>; left out %n system/hidden file(s) or folder(s) (Settings → Scanning)</source>
      <translation>
        <numerusform>; left out %n system/hidden file or folder (Settings → Scanning)</numerusform>
        <numerusform>; left out %n system/hidden files or folders (Settings → Scanning)</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>SearchPanel</name>
    <message numerus="yes">
      <source>Images (%n)</source>
      <translation>
        <numerusform>Images (%n)</numerusform>
        <numerusform>Images (%n)</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>Dialogue (%n)</source>
      <translation>
        <numerusform>Dialogue (%n)</numerusform>
        <numerusform>Dialogue (%n)</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <source>%n result(s) for “{query}”</source>
      <translation>
        <numerusform>%n result for “{query}”</numerusform>
        <numerusform>%n results for “{query}”</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>TranscriptEditor</name>
    <message numerus="yes">
      <source>%n line(s) failed the translation check and kept their original text: they are marked in the list. Type their translation and save.</source>
      <translation>
        <numerusform>%n line failed the translation check and kept their original text: they are marked in the list. Type their translation and save.</numerusform>
        <numerusform>%n lines failed the translation check and kept their original text: they are marked in the list. Type their translation and save.</numerusform>
      </translation>
    </message>
  </context>
</TS>
