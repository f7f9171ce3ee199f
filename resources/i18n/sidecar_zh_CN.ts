<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Activity</name>
    <message>
        <source>Sidecar — Paused: new jobs wait for Resume all</source>
        <extracomment>Jobs with work left to run (a job waiting for review or finished has none).</extracomment>
        <translation>Sidecar — 已暂停：新任务等待“全部继续”</translation>
    </message>
    <message>
        <source>Sidecar — Paused: {done} of {total} files done</source>
        <translation>Sidecar — 已暂停：已完成 {done}/{total} 个文件</translation>
    </message>
    <message>
        <source>Sidecar — {done} of {total} files, working on {name}</source>
        <translation>Sidecar — {done}/{total} 个文件，正在处理 {name}</translation>
    </message>
    <message>
        <source>Sidecar — {done} of {total} files, starting</source>
        <translation>Sidecar — {done}/{total} 个文件，正在开始</translation>
    </message>
    <message>
        <source>Sidecar — %n job(s) paused</source>
        <translation>Sidecar — %n 个任务已暂停</translation>
    </message>
    <message>
        <source>Sidecar — Idle</source>
        <translation>Sidecar — 空闲</translation>
    </message>
</context>
<context>
    <name>Code</name>
    <message>
        <source>Install a translation model in Settings → Models (or `sidecar models`), or set an OpenAI-compatible translation server in Settings → Output; then choose Translate again on the job (or `sidecar translate-again`): the stored transcript is reused, only the translation runs.</source>
        <translation>请在 设置 → 模型 中安装一个翻译模型（或使用 `sidecar models`），或在 设置 → 输出 中设置一个兼容 OpenAI 的翻译服务器；然后在该任务上选择“重新翻译”（或运行 `sidecar translate-again`）：已存的转写会被复用，只运行翻译。</translation>
    </message>
    <message>
        <source>Sidecar retries it by itself; if it keeps failing, use Retry item later.</source>
        <translation>Sidecar 会自行重试；如果一直失败，稍后使用“重试此项”。</translation>
    </message>
    <message>
        <source>This is a bug in Sidecar: retry the item, and if it fails again send the log (Log tab) with a report.</source>
        <translation>这是 Sidecar 的缺陷：请重试此项，如果再次失败，请把日志（日志标签页）随报告一起发送。</translation>
    </message>
    <message>
        <source>What to do: {advice}</source>
        <translation>怎么办：{advice}</translation>
    </message>
    <message>
        <source>{count} of {cues} lines kept their original text: {lines}</source>
        <translation>{cues} 行中有 {count} 行保留了原文：{lines}</translation>
    </message>
    <message>
        <source>Lines: {lines}</source>
        <translation>行：{lines}</translation>
    </message>
    <message>
        <source>waiting for the {pair} translator (install {install})</source>
        <translation>等待 {pair} 翻译模型（需安装：{install}）</translation>
    </message>
    <message>
        <source>came back untranslated</source>
        <extracomment>Why a line kept its original text (the reasons of app/media/translation_quality.py), as a person reads them.</extracomment>
        <translation>返回时未翻译</translation>
    </message>
    <message>
        <source>in another language</source>
        <translation>是另一种语言</translation>
    </message>
    <message>
        <source>says something else</source>
        <translation>意思不符</translation>
    </message>
    <message>
        <source>fits another line</source>
        <translation>更符合另一行</translation>
    </message>
    <message>
        <source>repeats another line</source>
        <translation>与另一行重复</translation>
    </message>
    <message>
        <source>a glossary term not as given</source>
        <translation>术语未按词表翻译</translation>
    </message>
    <message>
        <source>no answer for it</source>
        <translation>没有得到回答</translation>
    </message>
    <message>
        <source>repeats itself</source>
        <translation>自身重复</translation>
    </message>
    <message>
        <source>partly left untranslated</source>
        <translation>部分未翻译</translation>
    </message>
    <message>
        <source>The translation server {server} could not be reached, after several tries; the transcript was written, the translation was not.</source>
        <translation>多次尝试后仍无法连接翻译服务器 {server}；已写入转写，未写入翻译。</translation>
    </message>
    <message>
        <source>The file cannot be read as media.</source>
        <translation>无法把该文件当作媒体读取。</translation>
    </message>
    <message>
        <source>Check that it plays in a media player; re-encode or replace it, then retry the item.</source>
        <translation>检查它能否在媒体播放器中播放；重新编码或替换它，然后重试此项。</translation>
    </message>
    <message>
        <source>The video has no sound track, so there is no speech to subtitle.</source>
        <translation>该视频没有音轨，因此没有可加字幕的语音。</translation>
    </message>
    <message>
        <source>Nothing to do unless the wrong file was added.</source>
        <translation>无需处理，除非添加了错误的文件。</translation>
    </message>
    <message>
        <source>The file was moved or deleted before Sidecar finished it.</source>
        <translation>在 Sidecar 处理完之前，该文件被移动或删除了。</translation>
    </message>
    <message>
        <source>Put it back and retry the item, or add its new folder.</source>
        <translation>把它放回原处并重试此项，或添加它的新文件夹。</translation>
    </message>
    <message>
        <source>The folder is gone (moved, deleted or on a drive that is not connected).</source>
        <translation>该文件夹已不存在（被移动、删除，或位于未连接的驱动器上）。</translation>
    </message>
    <message>
        <source>Reconnect the drive or restore the folder, then resume or add it again.</source>
        <translation>重新连接驱动器或恢复该文件夹，然后继续或重新添加它。</translation>
    </message>
    <message>
        <source>The image has more pixels than Sidecar decodes.</source>
        <translation>该图片的像素数超过 Sidecar 能解码的上限。</translation>
    </message>
    <message>
        <source>Scale it down if it should be searchable; nothing else is affected.</source>
        <translation>如果需要可搜索，请缩小它；其他内容不受影响。</translation>
    </message>
    <message>
        <source>No pipeline of this Sidecar handles this kind of file.</source>
        <translation>此版本的 Sidecar 没有能处理这类文件的流程。</translation>
    </message>
    <message>
        <source>The file changed while Sidecar worked on it, so nothing was written.</source>
        <translation>Sidecar 处理期间该文件发生了变化，因此没有写入任何内容。</translation>
    </message>
    <message>
        <source>Add the folder again once the file stops changing.</source>
        <translation>等文件不再变化后重新添加该文件夹。</translation>
    </message>
    <message>
        <source>This is a pipe, socket or device (or a link to one), not a media file; it was left out.</source>
        <translation>这是管道、套接字或设备（或指向它们的链接），不是媒体文件；已跳过。</translation>
    </message>
    <message>
        <source>Nothing to do: Sidecar never reads such entries.</source>
        <translation>无需处理：Sidecar 从不读取此类条目。</translation>
    </message>
    <message>
        <source>The file is empty (0 bytes), so there is nothing to process.</source>
        <translation>文件为空（0 字节），没有可处理的内容。</translation>
    </message>
    <message>
        <source>Replace it with the complete file, then add the folder again.</source>
        <translation>请用完整的文件替换它，然后重新添加该文件夹。</translation>
    </message>
    <message>
        <source>A link points at a file that does not exist; it was left out.</source>
        <translation>链接指向的文件不存在；已跳过。</translation>
    </message>
    <message>
        <source>Fix or remove the link if the file should be processed.</source>
        <translation>如果需要处理该文件，请修复或删除该链接。</translation>
    </message>
    <message>
        <source>A step made no progress for too long, so it was stopped and the queue went on.</source>
        <translation>某个步骤长时间没有进展，已被停止，队列继续处理。</translation>
    </message>
    <message>
        <source>Check that the file plays and its disk answers, then retry the item.</source>
        <translation>请检查文件能否播放、所在磁盘是否响应，然后重试该项目。</translation>
    </message>
    <message>
        <source>Sidecar itself crashed on this file several times, so it was set aside.</source>
        <translation>Sidecar 本身在处理此文件时多次崩溃，因此已将其搁置。</translation>
    </message>
    <message>
        <source>Check the file plays; send the crash report (Log tab) with a bug report.</source>
        <translation>检查该文件能否播放；把崩溃报告（日志标签页）随缺陷报告一起发送。</translation>
    </message>
    <message>
        <source>The disk holding the folder is full.</source>
        <translation>存放该文件夹的磁盘已满。</translation>
    </message>
    <message>
        <source>Free some space; Sidecar retries by itself.</source>
        <translation>释放一些空间；Sidecar 会自行重试。</translation>
    </message>
    <message>
        <source>Sidecar may not write into the file&apos;s folder.</source>
        <translation>Sidecar 无权写入该文件所在的文件夹。</translation>
    </message>
    <message>
        <source>Give your user write permission on the folder, then retry the item.</source>
        <translation>给您的用户授予该文件夹的写入权限，然后重试此项。</translation>
    </message>
    <message>
        <source>Writing a file next to the media failed.</source>
        <translation>在媒体旁写入文件失败。</translation>
    </message>
    <message>
        <source>The file&apos;s name, or the output name made from it, is not allowed on this system (Windows refuses &lt;&gt;:&quot;|?* and names like CON).</source>
        <translation>文件名或由其生成的输出文件名在此系统上不被允许（Windows 不接受 &lt;&gt;:&quot;|?* 以及 CON 之类的名称）。</translation>
    </message>
    <message>
        <source>Rename the media file, then add it again.</source>
        <translation>重命名该媒体文件，然后重新添加。</translation>
    </message>
    <message>
        <source>The output name would be longer than the file system allows.</source>
        <translation>输出名称会超过文件系统允许的长度。</translation>
    </message>
    <message>
        <source>Shorten the media file&apos;s name, then add it again.</source>
        <translation>缩短该媒体文件的名称，然后重新添加。</translation>
    </message>
    <message>
        <source>A file Sidecar prepared in its workspace was damaged before it was placed.</source>
        <translation>Sidecar 在工作区中准备的文件在放置前损坏了。</translation>
    </message>
    <message>
        <source>Retry the item; check the disk holding Sidecar&apos;s data if it happens again.</source>
        <translation>重试此项；如果再次发生，请检查存放 Sidecar 数据的磁盘。</translation>
    </message>
    <message>
        <source>Someone else changed the subtitle file while Sidecar was writing it.</source>
        <translation>Sidecar 写入字幕文件时，有人修改了它。</translation>
    </message>
    <message>
        <source>Decide in the Review tab which version to keep.</source>
        <translation>在待审核标签页中决定保留哪个版本。</translation>
    </message>
    <message>
        <source>Whether a file was written is unknown or contested.</source>
        <translation>无法确定文件是否已写入，或存在争议。</translation>
    </message>
    <message>
        <source>Decide in the Review tab.</source>
        <translation>在待审核标签页中作出决定。</translation>
    </message>
    <message>
        <source>The subtitle file holds your edit from Sidecar&apos;s editor; this run made a new version.</source>
        <translation>该字幕文件包含您在 Sidecar 编辑器中的修改；本次运行生成了新版本。</translation>
    </message>
    <message>
        <source>Decide in the Review tab: Applied keeps your edit, Not applied writes Sidecar&apos;s.</source>
        <translation>在待审核标签页中决定：“已生效”保留您的修改，“未生效”写入 Sidecar 的版本。</translation>
    </message>
    <message>
        <source>Skipped by a review decision.</source>
        <translation>因审核决定而跳过。</translation>
    </message>
    <message>
        <source>The model process stopped unexpectedly.</source>
        <translation>模型进程意外停止。</translation>
    </message>
    <message>
        <source>The graphics card ran out of memory.</source>
        <translation>显卡内存不足。</translation>
    </message>
    <message>
        <source>Sidecar released its models and retries; close other GPU programs if it repeats.</source>
        <translation>Sidecar 已释放其模型并重试；如果反复出现，请关闭其他使用 GPU 的程序。</translation>
    </message>
    <message>
        <source>A temporary problem interrupted the work.</source>
        <translation>一个临时问题中断了工作。</translation>
    </message>
    <message>
        <source>Sidecar hit an unexpected error.</source>
        <translation>Sidecar 遇到了意外错误。</translation>
    </message>
    <message>
        <source>A subtitle batch did not fit the translation model&apos;s context.</source>
        <translation>一批字幕超出了翻译模型的上下文长度。</translation>
    </message>
    <message>
        <source>Choose a translation model with a larger context in Settings → Models.</source>
        <translation>在 设置 → 模型 中选择上下文更大的翻译模型。</translation>
    </message>
    <message>
        <source>The translation server could not be reached or was busy.</source>
        <translation>无法连接翻译服务器，或服务器繁忙。</translation>
    </message>
    <message>
        <source>Check that the server in Settings → Output is running; Sidecar retries.</source>
        <translation>检查 设置 → 输出 中的服务器是否在运行；Sidecar 会重试。</translation>
    </message>
    <message>
        <source>The translation server refused the request.</source>
        <translation>翻译服务器拒绝了请求。</translation>
    </message>
    <message>
        <source>Check the server address and model name in Settings → Output.</source>
        <translation>检查 设置 → 输出 中的服务器地址和模型名称。</translation>
    </message>
    <message>
        <source>Most lines could not be translated, so no translated subtitles were written (only the transcript).</source>
        <translation>大多数行无法翻译，因此没有写入翻译字幕（只写入了转写）。</translation>
    </message>
    <message>
        <source>The transcript is written; the translation waits for its translator to be installed.</source>
        <translation>转写稿已写入；翻译正在等待安装对应的翻译模型。</translation>
    </message>
    <message>
        <source>Install the translator named (Settings → Models, or `sidecar models install`); the item is then translated by itself.</source>
        <translation>安装所列的翻译模型（设置 → 模型，或 `sidecar models install`）；之后该项目会自动翻译。</translation>
    </message>
    <message>
        <source>The translation was written, but a tenth or more of its lines failed the quality check and kept their original text.</source>
        <translation>译文已写入，但至少十分之一的行未通过质量检查，保留了原文。</translation>
    </message>
    <message>
        <source>Check the lines listed (the subtitle editor marks them); a better translation model fixes them (Settings → Models).</source>
        <translation>请检查列出的行（字幕编辑器会标出它们）；更好的翻译模型可以修正它们（设置 → 模型）。</translation>
    </message>
    <message>
        <source>A few lines kept their original text; the rest is translated.</source>
        <translation>少数行保留了原文；其余已翻译。</translation>
    </message>
    <message>
        <source>Check the lines listed; a better translation model fixes them (Settings → Models).</source>
        <translation>检查所列出的行；更好的翻译模型可以修正它们（设置 → 模型）。</translation>
    </message>
    <message>
        <source>Some translated lines read faster than the reading speed allows; they are kept whole, not cut.</source>
        <extracomment>An item note: the item&apos;s ``over_reading_speed`` fact lists the cues (flagged, never cut).</extracomment>
        <translation>部分译文行超出了允许的阅读速度；它们保持完整，未被删减。</translation>
    </message>
    <message>
        <source>Shorten them in the subtitle editor if you like, or choose the relaxed subtitle rules in Settings → Output.</source>
        <translation>如有需要，可在字幕编辑器中缩短它们，或在 设置 → 输出 中选择宽松的字幕规则。</translation>
    </message>
    <message>
        <source>No speech was heard, so no subtitles were written.</source>
        <translation>没有听到语音，因此没有写入字幕。</translation>
    </message>
    <message>
        <source>A subtitle in the target language is already next to the file.</source>
        <translation>文件旁已有目标语言的字幕。</translation>
    </message>
    <message>
        <source>The video already carries subtitles in the target language.</source>
        <translation>该视频已内嵌目标语言的字幕。</translation>
    </message>
    <message>
        <source>The computer ran out of memory for this file, on the graphics card and then on the CPU too.</source>
        <translation>处理此文件时计算机内存不足，先是显卡，然后 CPU 也不足。</translation>
    </message>
    <message>
        <source>Close other programs or choose a smaller model in Settings → Models, then retry.</source>
        <translation>关闭其他程序，或在 设置 → 模型 中选择更小的模型，然后重试。</translation>
    </message>
    <message>
        <source>This camera raw file carries no preview picture to index.</source>
        <translation>这个相机原始文件没有可供索引的预览图。</translation>
    </message>
    <message>
        <source>Export a JPEG of it from your photo software; Sidecar never decodes whole raw files.</source>
        <translation>用您的照片软件导出一张 JPEG；Sidecar 从不解码完整的原始文件。</translation>
    </message>
    <message>
        <source>This file was skipped, so there is nothing to change for it.</source>
        <translation>该文件已被跳过，因此没有可更改的内容。</translation>
    </message>
    <message>
        <source>Add its folder again with --redo to process it anyway.</source>
        <translation>使用 --redo 重新添加其文件夹，即可强制处理它。</translation>
    </message>
    <message>
        <source>A file of this item is waiting for your decision in Review.</source>
        <translation>此项的一个文件正在待审核中等待您的决定。</translation>
    </message>
    <message>
        <source>Decide it in Review first, then change the item.</source>
        <translation>先在待审核中作出决定，再更改此项。</translation>
    </message>
    <message>
        <source>Sidecar has not written subtitles for this file, or they are no longer next to it.</source>
        <translation>Sidecar 尚未为此文件写入字幕，或字幕已不在它旁边。</translation>
    </message>
    <message>
        <source>Run a job on its folder first; the subtitles Sidecar writes open here.</source>
        <translation>先对其文件夹运行一个任务；Sidecar 写入的字幕会在这里打开。</translation>
    </message>
    <message>
        <source>The subtitle file changed on disk after it was opened; nothing was saved over it.</source>
        <translation>字幕文件在打开后在磁盘上发生了变化；没有覆盖保存。</translation>
    </message>
    <message>
        <source>Open it again to see that change, then edit.</source>
        <translation>重新打开它以查看该变化，然后再编辑。</translation>
    </message>
    <message>
        <source>Sidecar is working on this file right now.</source>
        <translation>Sidecar 正在处理此文件。</translation>
    </message>
    <message>
        <source>Save again when it is done.</source>
        <translation>处理完成后再保存。</translation>
    </message>
    <message>
        <source>Adding the folder was interrupted before every file was listed.</source>
        <translation>添加文件夹时在列出所有文件之前被中断。</translation>
    </message>
    <message>
        <source>Add the folder again.</source>
        <translation>重新添加该文件夹。</translation>
    </message>
    <message>
        <source>The file could not be read (no permission, or a disk error).</source>
        <translation>无法读取该文件（没有权限或磁盘错误）。</translation>
    </message>
    <message>
        <source>Check its permissions, then retry the item or add the folder again.</source>
        <translation>请检查其权限，然后重试该项目或重新添加文件夹。</translation>
    </message>
    <message>
        <source>A folder could not be read while it was added.</source>
        <translation>添加文件夹时无法读取它。</translation>
    </message>
    <message>
        <source>Check its permissions, then add the folder again.</source>
        <translation>检查它的权限，然后重新添加该文件夹。</translation>
    </message>
    <message>
        <source>A folder link leads back into a folder already scanned; it was scanned once.</source>
        <translation>一个文件夹链接指回已扫描过的文件夹；它只被扫描了一次。</translation>
    </message>
    <message>
        <source>A file disappeared while the folder was added.</source>
        <translation>添加文件夹时有一个文件消失了。</translation>
    </message>
    <message>
        <source>Add the folder again if needed.</source>
        <translation>如有需要，重新添加该文件夹。</translation>
    </message>
    <message>
        <source>The folder lies inside (or holds) a folder already watched.</source>
        <translation>该文件夹位于一个已监视的文件夹之内（或包含它）。</translation>
    </message>
    <message>
        <source>Watch only one of the two folders.</source>
        <translation>只监视两个文件夹中的一个。</translation>
    </message>
    <message>
        <source>That folder is already watched.</source>
        <translation>该文件夹已在监视中。</translation>
    </message>
    <message>
        <source>No such watched folder.</source>
        <translation>没有这个监视文件夹。</translation>
    </message>
    <message>
        <source>Check the list of watched folders in Settings.</source>
        <translation>在设置中查看监视文件夹列表。</translation>
    </message>
    <message>
        <source>Someone else decided this review first.</source>
        <translation>有人先对这项审核作出了决定。</translation>
    </message>
    <message>
        <source>Look at the decision now shown and decide again if needed.</source>
        <translation>查看现在显示的决定，如有需要再重新决定。</translation>
    </message>
    <message>
        <source>The job, item or review no longer exists.</source>
        <translation>该任务、项或审核已不存在。</translation>
    </message>
    <message>
        <source>Refresh the list.</source>
        <translation>刷新列表。</translation>
    </message>
    <message>
        <source>The work stopped at a checkpoint (paused or closing) and resumes later.</source>
        <translation>工作在检查点处停止（已暂停或正在关闭），稍后会继续。</translation>
    </message>
    <message>
        <source>Another worker took over this step.</source>
        <translation>另一个工作进程接管了这一步。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>A --path-map is not LIBRARY_PREFIX=LOCAL_PREFIX with two absolute paths.</source>
        <translation>--path-map 的格式不是由两个绝对路径组成的 LIBRARY_PREFIX=LOCAL_PREFIX。</translation>
    </message>
    <message>
        <source>Write it as /mnt/nas/media=D:\Media (quote it in the shell).</source>
        <translation>写成 /mnt/nas/media=D:\Media（在 shell 中加引号）。</translation>
    </message>
    <message>
        <source>The worker did not start: a mapped folder is missing or does not show the library&apos;s files.</source>
        <translation>工作进程未启动：某个映射的文件夹缺失，或看不到库中的文件。</translation>
    </message>
    <message>
        <source>Mount the share, or fix the --path-map so its local side shows the same files.</source>
        <translation>挂载该共享，或修正 --path-map，使其本地一侧显示相同的文件。</translation>
    </message>
    <message>
        <source>A worker&apos;s mapped folder disappeared while it worked; the step was given back.</source>
        <translation>工作进程映射的文件夹在工作时消失了；这一步已交还。</translation>
    </message>
    <message>
        <source>Another machine (or this one, once the folder is back) takes it over.</source>
        <translation>另一台机器（或本机，在文件夹恢复后）会接手。</translation>
    </message>
    <message>
        <source>No --path-map of the worker covers this file; it was left for another machine.</source>
        <translation>工作进程的 --path-map 都不包含此文件；它留给了另一台机器。</translation>
    </message>
    <message>
        <source>The engine is still starting.</source>
        <translation>引擎仍在启动中。</translation>
    </message>
    <message>
        <source>Try again in a moment.</source>
        <translation>请稍后再试。</translation>
    </message>
    <message>
        <source>The window called the engine on its own thread.</source>
        <translation>窗口在自己的线程上调用了引擎。</translation>
    </message>
    <message>
        <source>The request is not valid.</source>
        <translation>该请求无效。</translation>
    </message>
    <message>
        <source>Check the command&apos;s options (`--help`).</source>
        <translation>检查命令的选项（`--help`）。</translation>
    </message>
    <message>
        <source>The glossary file could not be read as text.</source>
        <translation>无法以文本形式读取词汇表文件。</translation>
    </message>
    <message>
        <source>Give a UTF-8 text file with one `term` or `term = translation` a line.</source>
        <translation>请提供 UTF-8 文本文件，每行一个 `术语` 或 `术语 = 译文`。</translation>
    </message>
    <message>
        <source>A setting has a value Sidecar does not know.</source>
        <translation>某个设置的值是 Sidecar 不认识的。</translation>
    </message>
    <message>
        <source>Fix it in Settings.</source>
        <translation>在设置中修正它。</translation>
    </message>
    <message>
        <source>This Sidecar has no media pipelines registered.</source>
        <translation>此版本的 Sidecar 没有注册任何媒体处理流程。</translation>
    </message>
    <message>
        <source>Searching by image needs a visual (CLIP) model.</source>
        <translation>以图搜索需要一个视觉（CLIP）模型。</translation>
    </message>
    <message>
        <source>Install one in Settings → Models (or `sidecar models`).</source>
        <translation>在 设置 → 模型 中安装一个（或使用 `sidecar models`）。</translation>
    </message>
    <message>
        <source>The library database cannot be opened from that URL.</source>
        <translation>无法通过该 URL 打开库数据库。</translation>
    </message>
    <message>
        <source>Use postgresql+psycopg://user@host:port/db or sqlite:///absolute/path (--database-url, SIDECAR_DATABASE_URL or the database_url setting).</source>
        <translation>使用 postgresql+psycopg://user@host:port/db 或 sqlite:///absolute/path（--database-url、SIDECAR_DATABASE_URL 或 database_url 设置）。</translation>
    </message>
    <message>
        <source>The library database&apos;s server cannot be reached.</source>
        <translation>无法连接库数据库的服务器。</translation>
    </message>
    <message>
        <source>Check the network and that PostgreSQL runs; Sidecar reconnects by itself.</source>
        <translation>检查网络以及 PostgreSQL 是否在运行；Sidecar 会自行重新连接。</translation>
    </message>
    <message>
        <source>The library database cannot be moved back to an older schema.</source>
        <translation>库数据库无法退回到较旧的结构版本。</translation>
    </message>
    <message>
        <source>Open a backup of the library with the older Sidecar instead.</source>
        <translation>请改用较旧的 Sidecar 打开库的备份。</translation>
    </message>
    <message>
        <source>This library was written by a newer Sidecar.</source>
        <translation>该库由较新版本的 Sidecar 写入。</translation>
    </message>
    <message>
        <source>Update Sidecar.</source>
        <translation>请更新 Sidecar。</translation>
    </message>
    <message>
        <source>A work schedule is not &quot;all&quot;, &quot;off&quot; or a span like 22:00-07:00.</source>
        <translation>工作时间表不是“all”、“off”或类似 22:00-07:00 的时间段。</translation>
    </message>
    <message>
        <source>Correct it in Settings → Schedule &amp; power.</source>
        <translation>在 设置 → 计划与电源 中修正它。</translation>
    </message>
    <message>
        <source>A file of the installation is missing.</source>
        <translation>安装中缺少一个文件。</translation>
    </message>
    <message>
        <source>Reinstall Sidecar.</source>
        <translation>请重新安装 Sidecar。</translation>
    </message>
    <message>
        <source>A model that ships with Sidecar is missing.</source>
        <translation>Sidecar 自带的一个模型缺失。</translation>
    </message>
    <message>
        <source>That model ships with Sidecar and needs no install.</source>
        <translation>该模型随 Sidecar 提供，无需安装。</translation>
    </message>
    <message>
        <source>A downloaded model does not match its published checksum.</source>
        <translation>下载的模型与其公布的校验和不符。</translation>
    </message>
    <message>
        <source>Install it again; the damaged download was not used.</source>
        <translation>请重新安装；损坏的下载未被使用。</translation>
    </message>
    <message>
        <source>The model download failed.</source>
        <translation>模型下载失败。</translation>
    </message>
    <message>
        <source>Check the connection and install again; the download resumes where it stopped.</source>
        <translation>检查网络连接后重新安装；下载会从中断处继续。</translation>
    </message>
    <message>
        <source>The download was cancelled; what was fetched is kept for a resume.</source>
        <translation>下载已取消；已获取的部分会保留以便继续。</translation>
    </message>
    <message>
        <source>There is not enough free disk space for the model.</source>
        <translation>没有足够的磁盘空间存放该模型。</translation>
    </message>
    <message>
        <source>Free space on the disk holding Sidecar&apos;s data, then install again.</source>
        <translation>释放存放 Sidecar 数据的磁盘空间，然后重新安装。</translation>
    </message>
    <message>
        <source>That model cannot be downloaded by Sidecar.</source>
        <translation>Sidecar 无法下载该模型。</translation>
    </message>
    <message>
        <source>Register a local copy with `sidecar models register`.</source>
        <translation>使用 `sidecar models register` 注册一个本地副本。</translation>
    </message>
    <message>
        <source>That model is already being installed.</source>
        <translation>该模型正在安装中。</translation>
    </message>
    <message>
        <source>Wait for it to finish.</source>
        <translation>请等待安装完成。</translation>
    </message>
    <message>
        <source>The model request cannot be done as asked.</source>
        <translation>无法按要求执行该模型请求。</translation>
    </message>
    <message>
        <source>See the message for why.</source>
        <translation>原因见消息。</translation>
    </message>
    <message>
        <source>The chosen model&apos;s files are missing.</source>
        <translation>所选模型的文件缺失。</translation>
    </message>
    <message>
        <source>Install the model again, or choose another in Settings → Models.</source>
        <translation>重新安装该模型，或在 设置 → 模型 中选择另一个。</translation>
    </message>
    <message>
        <source>That model is not installed.</source>
        <translation>该模型尚未安装。</translation>
    </message>
    <message>
        <source>Install it first (Settings → Models).</source>
        <translation>请先安装它（设置 → 模型）。</translation>
    </message>
    <message>
        <source>A model gave answers of the wrong shape.</source>
        <translation>某个模型给出的结果格式不对。</translation>
    </message>
    <message>
        <source>Reinstall the model.</source>
        <translation>请重新安装该模型。</translation>
    </message>
    <message>
        <source>A model could not be loaded.</source>
        <translation>无法加载某个模型。</translation>
    </message>
    <message>
        <source>Reinstall the model, or choose another.</source>
        <translation>重新安装该模型，或选择另一个。</translation>
    </message>
    <message>
        <source>No model file at that path.</source>
        <translation>该路径下没有模型文件。</translation>
    </message>
    <message>
        <source>Check the path and register it again.</source>
        <translation>检查路径后重新注册。</translation>
    </message>
    <message>
        <source>That model name is already used.</source>
        <translation>该模型名称已被使用。</translation>
    </message>
    <message>
        <source>Choose another name.</source>
        <translation>请另选一个名称。</translation>
    </message>
    <message>
        <source>The file recording the model choices cannot be read.</source>
        <translation>记录模型选择的文件无法读取。</translation>
    </message>
    <message>
        <source>Move it aside; the choices are then reset.</source>
        <translation>把它移到别处；选择随后会被重置。</translation>
    </message>
    <message>
        <source>That file is not a usable model.</source>
        <translation>该文件不是可用的模型。</translation>
    </message>
    <message>
        <source>Check the file, or download it again.</source>
        <translation>检查该文件，或重新下载。</translation>
    </message>
    <message>
        <source>That file is not a translation package Sidecar can install; nothing was changed.</source>
        <translation>该文件不是 Sidecar 可以安装的翻译包；未做任何更改。</translation>
    </message>
    <message>
        <source>Download the package again from the link Settings → Models gives.</source>
        <translation>请从“设置 → 模型”给出的链接重新下载该包。</translation>
    </message>
    <message>
        <source>That is not a valid model name.</source>
        <translation>这不是有效的模型名称。</translation>
    </message>
    <message>
        <source>Use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, at most 64.</source>
        <translation>使用字母、数字、&apos;.&apos;、&apos;_&apos; 和 &apos;-&apos;，最多 64 个字符。</translation>
    </message>
    <message>
        <source>No model of that name.</source>
        <translation>没有这个名称的模型。</translation>
    </message>
    <message>
        <source>See the list in Settings → Models (or `sidecar models`).</source>
        <translation>请查看 设置 → 模型 中的列表（或使用 `sidecar models`）。</translation>
    </message>
    <message>
        <source>No model role of that name.</source>
        <translation>没有这个名称的模型角色。</translation>
    </message>
    <message>
        <source>Use a role listed by `sidecar models`.</source>
        <translation>使用 `sidecar models` 列出的角色。</translation>
    </message>
    <message>
        <source>Sidecar always uses its bundled model for that role.</source>
        <translation>Sidecar 对该角色始终使用其自带的模型。</translation>
    </message>
    <message>
        <source>The model catalogue is missing from the installation.</source>
        <translation>安装中缺少模型目录。</translation>
    </message>
    <message>
        <source>The model catalogue of the installation is damaged.</source>
        <translation>安装中的模型目录已损坏。</translation>
    </message>
    <message>
        <source>The request carried no file in the field the endpoint reads.</source>
        <translation>请求中端点读取的字段里没有文件。</translation>
    </message>
    <message>
        <source>Send the audio as the multipart field `audio_file`.</source>
        <translation>请以 multipart 字段 `audio_file` 发送音频。</translation>
    </message>
    <message>
        <source>The uploaded file is empty (0 bytes).</source>
        <translation>上传的文件为空（0 字节）。</translation>
    </message>
    <message>
        <source>Check that the client read the audio before sending it.</source>
        <translation>请检查客户端在发送前是否读取了音频。</translation>
    </message>
    <message>
        <source>The uploaded file holds no audio Sidecar can decode.</source>
        <translation>上传的文件中没有 Sidecar 能解码的音频。</translation>
    </message>
    <message>
        <source>Send a media file with an audio track, or raw 16 kHz mono s16le PCM with encode=false.</source>
        <translation>请发送带音轨的媒体文件，或以 encode=false 发送 16 kHz 单声道 s16le 原始 PCM。</translation>
    </message>
    <message>
        <source>The upload is larger than the server&apos;s limit.</source>
        <translation>上传超过了服务器的大小限制。</translation>
    </message>
    <message>
        <source>Raise serve_upload_limit_mb in the settings, or send the audio track alone.</source>
        <translation>请在设置中调高 serve_upload_limit_mb，或只发送音轨。</translation>
    </message>
    <message>
        <source>The request&apos;s token is missing or wrong.</source>
        <translation>请求的令牌缺失或错误。</translation>
    </message>
    <message>
        <source>Send `Authorization: Bearer &lt;serve_token&gt;` (or the token as the URL&apos;s password).</source>
        <translation>请发送 `Authorization: Bearer &lt;serve_token&gt;`（或把令牌作为 URL 的密码）。</translation>
    </message>
    <message>
        <source>The requested output format is not one Sidecar writes.</source>
        <translation>Sidecar 不输出所请求的格式。</translation>
    </message>
    <message>
        <source>Ask for srt, vtt, txt, json or tsv.</source>
        <translation>请使用 srt、vtt、txt、json 或 tsv。</translation>
    </message>
    <message>
        <source>The path is not inside a folder added to the library or watched.</source>
        <translation>该路径不在已添加到资料库或已监视的文件夹中。</translation>
    </message>
    <message>
        <source>Add or watch the folder, or fix the server path map (serve_path_map).</source>
        <translation>请添加或监视该文件夹，或修正服务器路径映射（serve_path_map）。</translation>
    </message>
    <message>
        <source>The subtitle was placed, but the media server did not take the request to refresh the item.</source>
        <translation>字幕已放置，但媒体服务器未接受刷新该条目的请求。</translation>
    </message>
    <message>
        <source>Check the server&apos;s address and token in the settings; its next library scan finds the subtitle.</source>
        <translation>请在设置中检查服务器地址和令牌；服务器下次扫描资料库时会找到该字幕。</translation>
    </message>
</context>
<context>
    <name>Columns</name>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>待审核</translation>
    </message>
    <message>
        <source>ETA</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Audio</source>
        <translation>音轨</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>正在处理</translation>
    </message>
    <message>
        <source>Heartbeat</source>
        <translation>心跳</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Alive</source>
        <translation>存活</translation>
    </message>
</context>
<context>
    <name>DatabaseDialog</name>
    <message>
        <source>No database server answered at that address. Check the address and that PostgreSQL runs there, or go back to the library on this computer.</source>
        <extracomment>What the person can do about each reason the library did not open (other codes: the first one).</extracomment>
        <translation>该地址没有数据库服务器应答。请检查地址以及 PostgreSQL 是否在运行，或回到本机上的资料库。</translation>
    </message>
    <message>
        <source>Sidecar cannot open a library from that address. Correct it (postgresql://user@server/database), or go back to the library on this computer.</source>
        <translation>Sidecar 无法从该地址打开资料库。请更正（postgresql://用户@服务器/数据库），或回到本机上的资料库。</translation>
    </message>
    <message>
        <source>A newer Sidecar wrote this library. Update Sidecar, or go back to the library on this computer.</source>
        <translation>此资料库由更新版本的 Sidecar 写入。请更新 Sidecar，或回到本机上的资料库。</translation>
    </message>
    <message>
        <source>Opens: a Sidecar library.</source>
        <translation>可以打开：这是一个 Sidecar 资料库。</translation>
    </message>
    <message>
        <source>Opens: an empty database; Sidecar creates the library in it.</source>
        <translation>可以打开：空数据库；Sidecar 会在其中创建资料库。</translation>
    </message>
    <message>
        <source>Does not open: {reason}</source>
        <translation>无法打开：{reason}</translation>
    </message>
    <message>
        <source>The library cannot be opened</source>
        <translation>无法打开资料库</translation>
    </message>
    <message>
        <source>Sidecar could not open the library database.</source>
        <translation>Sidecar 无法打开资料库数据库。</translation>
    </message>
    <message>
        <source>empty: the library on this computer ({path})</source>
        <translation>留空：使用本机上的资料库（{path}）</translation>
    </message>
    <message>
        <source>Try this address</source>
        <translation>尝试此地址</translation>
    </message>
    <message>
        <source>Use the library on this computer</source>
        <translation>使用本机上的资料库</translation>
    </message>
    <message>
        <source>Library database:</source>
        <translation>资料库数据库：</translation>
    </message>
    <message>
        <source>Checking {url}…</source>
        <translation>正在检查 {url}…</translation>
    </message>
    <message>
        <source>Opening the library…</source>
        <translation>正在打开资料库…</translation>
    </message>
</context>
<context>
    <name>EvidenceView</name>
    <message>
        <source>What Sidecar wrote</source>
        <translation>Sidecar 写入的内容</translation>
    </message>
    <message>
        <source>On disk now</source>
        <translation>磁盘上的当前内容</translation>
    </message>
</context>
<context>
    <name>HoldWords</name>
    <message>
        <source>waiting for the schedule (starts {time})</source>
        <translation>等待计划时间（{time} 开始）</translation>
    </message>
    <message>
        <source>waiting for the schedule</source>
        <translation>等待计划时间</translation>
    </message>
    <message>
        <source>paused until {time}</source>
        <translation>暂停至 {time}</translation>
    </message>
    <message>
        <source>paused on battery power</source>
        <translation>使用电池，已暂停</translation>
    </message>
    <message>
        <source>paused while the computer is in use</source>
        <translation>电脑使用中，已暂停</translation>
    </message>
</context>
<context>
    <name>JobCounts</name>
    <message numerus="yes">
        <source>all %n failed</source>
        <translation>
            <numerusform>全部 %n 个失败</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n 个失败</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n to decide</source>
        <translation>
            <numerusform>%n 个待决定</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n not translated</source>
        <translation>
            <numerusform>%n 个未翻译</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n translation(s) to check</source>
        <translation>
            <numerusform>%n 个译文待检查</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>JobLabel</name>
    <message>
        <source>adding files</source>
        <extracomment>The words app.status_words.JobLabel uses where the stored status word is not what a person says.</extracomment>
        <translation>正在添加文件</translation>
    </message>
    <message>
        <source>needs review</source>
        <translation>需要审核</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
</context>
<context>
    <name>JobsFacade</name>
    <message>
        <source>Job finished</source>
        <translation>任务已完成</translation>
    </message>
    <message>
        <source>{name}: {done} of {total} done</source>
        <translation>{name}：已完成 {done} / {total}</translation>
    </message>
    <message numerus="yes">
        <source>, %n to decide</source>
        <translation>
            <numerusform>，%n 项待决定</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n failed</source>
        <translation>
            <numerusform>，%n 项失败</numerusform>
        </translation>
    </message>
    <message>
        <source>Items failed</source>
        <translation>有项目失败</translation>
    </message>
    <message>
        <source>Review needed</source>
        <translation>需要审核</translation>
    </message>
</context>
<context>
    <name>JobsModel</name>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <source>{minutes} min {seconds:02d} s</source>
        <translation>{minutes} 分 {seconds:02d} 秒</translation>
    </message>
    <message>
        <source>{hours} h {minutes:02d} min</source>
        <translation>{hours} 小时 {minutes:02d} 分</translation>
    </message>
    <message>
        <source>Finished — no media files in this folder</source>
        <translation>已完成 — 此文件夹中没有媒体文件</translation>
    </message>
    <message>
        <source>Paused because everything is paused (Pause all); Resume all starts it.</source>
        <translation>已暂停，因为全部已暂停（“全部暂停”）；点“全部继续”即可开始。</translation>
    </message>
    <message>
        <source>{name} (job {id})</source>
        <translation>{name}（任务 {id}）</translation>
    </message>
    <message>
        <source>estimating…</source>
        <translation>正在估算…</translation>
    </message>
</context>
<context>
    <name>LanguageCombo</name>
    <message>
        <source>English</source>
        <translation>英语</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>Japanese</source>
        <translation>日语</translation>
    </message>
    <message>
        <source>Korean</source>
        <translation>韩语</translation>
    </message>
    <message>
        <source>French</source>
        <translation>法语</translation>
    </message>
    <message>
        <source>German</source>
        <translation>德语</translation>
    </message>
    <message>
        <source>Spanish</source>
        <translation>西班牙语</translation>
    </message>
    <message>
        <source>Portuguese</source>
        <translation>葡萄牙语</translation>
    </message>
    <message>
        <source>Italian</source>
        <translation>意大利语</translation>
    </message>
    <message>
        <source>Russian</source>
        <translation>俄语</translation>
    </message>
    <message>
        <source>Arabic</source>
        <translation>阿拉伯语</translation>
    </message>
    <message>
        <source>Hindi</source>
        <translation>印地语</translation>
    </message>
    <message>
        <source>Dutch</source>
        <translation>荷兰语</translation>
    </message>
    <message>
        <source>Polish</source>
        <translation>波兰语</translation>
    </message>
    <message>
        <source>Turkish</source>
        <translation>土耳其语</translation>
    </message>
    <message>
        <source>Vietnamese</source>
        <translation>越南语</translation>
    </message>
    <message>
        <source>Thai</source>
        <translation>泰语</translation>
    </message>
    <message>
        <source>Indonesian</source>
        <translation>印度尼西亚语</translation>
    </message>
    <message>
        <source>Ukrainian</source>
        <translation>乌克兰语</translation>
    </message>
    <message>
        <source>Swedish</source>
        <translation>瑞典语</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>自动检测</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Media ({patterns})</source>
        <translation>媒体文件 ({patterns})</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <source>Pause all</source>
        <translation>全部暂停</translation>
    </message>
    <message>
        <source>Resume all</source>
        <translation>全部继续</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>审核</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Drop folders or files here, or use “Add folder…”.</source>
        <translation>把文件夹或文件拖到这里，或使用“添加文件夹…”。</translation>
    </message>
    <message>
        <source>Starting the engine…</source>
        <translation>正在启动引擎…</translation>
    </message>
    <message>
        <source>Identifying files: %v / %m</source>
        <translation>正在识别文件：%v / %m</translation>
    </message>
    <message>
        <source>Everything is paused; new jobs wait too. &lt;a href=&quot;resume&quot;&gt;Resume all&lt;/a&gt;</source>
        <translation>全部已暂停；新任务也会等待。&lt;a href=&quot;resume&quot;&gt;全部继续&lt;/a&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Review (%n)</source>
        <translation>
            <numerusform>审核 (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Engine running.</source>
        <translation>引擎正在运行。</translation>
    </message>
    <message>
        <source>{action} ({shortcut})</source>
        <translation>{action}（{shortcut}）</translation>
    </message>
    <message>
        <source>Sidecar — Paused</source>
        <translation>Sidecar — 已暂停</translation>
    </message>
    <message>
        <source>The library could not be opened.</source>
        <translation>无法打开资料库。</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s), {running} running</source>
        <translation>
            <numerusform>%n 个任务，{running} 个正在运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Recording files: %v / %m</source>
        <translation>正在记录文件：%v / %m</translation>
    </message>
    <message>
        <source>Finding files: %v found</source>
        <translation>正在查找文件：已找到 %v 个</translation>
    </message>
    <message numerus="yes">
        <source>; %n file(s) not added: {message}</source>
        <translation>
            <numerusform>；%n 个文件未添加：{message}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; left out %n system/hidden file(s) or folder(s) (Settings → Scanning)</source>
        <translation>
            <numerusform>；已略过 %n 个系统或隐藏的文件或文件夹（设置 → 扫描）</numerusform>
        </translation>
    </message>
    <message>
        <source> — no videos, audio or images in it, so there is nothing to do</source>
        <translation> — 其中没有视频、音频或图片，无需处理</translation>
    </message>
    <message>
        <source> — everything is paused: it starts after Resume all</source>
        <translation>——全部已暂停：点“全部继续”后开始</translation>
    </message>
    <message>
        <source>Added {folder}: {total} to do, {skipped} skipped{note}</source>
        <translation>已添加 {folder}：待处理 {total} 个，跳过 {skipped} 个{note}</translation>
    </message>
    <message>
        <source>Scanning {names}…</source>
        <translation>正在扫描 {names}…</translation>
    </message>
    <message>
        <source>Add a folder</source>
        <translation>添加文件夹</translation>
    </message>
    <message>
        <source>Add files</source>
        <translation>添加文件</translation>
    </message>
    <message>
        <source>Settings are still loading.</source>
        <translation>设置仍在加载。</translation>
    </message>
    <message>
        <source>Sidecar keeps working</source>
        <translation>Sidecar 仍在工作</translation>
    </message>
    <message>
        <source>Sidecar goes on processing in the background. Click its tray icon to open the window; Quit is in the icon&apos;s menu (Settings → Window to quit on close).</source>
        <translation>Sidecar 会在后台继续处理。单击托盘图标可打开窗口；“退出”在图标的菜单中（如需关闭窗口即退出，请在“设置 → 窗口”中更改）。</translation>
    </message>
</context>
<context>
    <name>QueueModel</name>
    <message>
        <source>chosen by you</source>
        <extracomment>Why a stream was used, as the Audio column&apos;s tooltip says it (keys: ``audio_stream.reason``).</extracomment>
        <translation>由您选择</translation>
    </message>
    <message>
        <source>the chosen track is missing; chosen by rule</source>
        <translation>所选音轨不存在；已按规则选择</translation>
    </message>
    <message>
        <source>in the source language</source>
        <translation>为源语言</translation>
    </message>
    <message>
        <source>the file&apos;s default track</source>
        <translation>文件的默认音轨</translation>
    </message>
    <message>
        <source>the first dialogue track</source>
        <translation>第一条对白音轨</translation>
    </message>
    <message>
        <source>the only track</source>
        <translation>唯一的音轨</translation>
    </message>
    <message>
        <source>Track {track} of {tracks}</source>
        <translation>音轨 {track}/{tracks}</translation>
    </message>
    <message>
        <source>{tagged} track; heard {heard}</source>
        <translation>标记为{tagged}；听到的是{heard}</translation>
    </message>
    <message>
        <source>{language}, detected</source>
        <translation>{language}（自动识别）</translation>
    </message>
    <message>
        <source>Audio track {track} of {tracks}: {reason}.</source>
        <translation>音轨 {track}/{tracks}：{reason}。</translation>
    </message>
    <message>
        <source>The file tags its language as {language}.</source>
        <translation>文件将其语言标记为{language}。</translation>
    </message>
    <message>
        <source>The file does not tag its language (“und”: undetermined).</source>
        <translation>文件未标记其语言（“und”：未确定）。</translation>
    </message>
    <message>
        <source>Heard in the speech: {language} ({percent} % sure).</source>
        <translation>从语音中识别：{language}（把握 {percent} %）。</translation>
    </message>
</context>
<context>
    <name>QueueView</name>
    <message>
        <source>Select a job to see its items.</source>
        <translation>选择一个任务以查看其中的项目。</translation>
    </message>
    <message>
        <source>Pause job</source>
        <translation>暂停任务</translation>
    </message>
    <message>
        <source>Resume job</source>
        <translation>继续任务</translation>
    </message>
    <message>
        <source>Retry failed</source>
        <translation>重试失败项</translation>
    </message>
    <message>
        <source>Cancel job</source>
        <translation>取消任务</translation>
    </message>
    <message>
        <source>Translate again</source>
        <translation>重新翻译</translation>
    </message>
    <message>
        <source>Translate the items that got no translation again, with the translator set now (Settings → Models)</source>
        <translation>用现在设置的翻译器，重新翻译没有得到译文的项目（设置 → 模型）</translation>
    </message>
    <message>
        <source>Retry item</source>
        <translation>重试此项</translation>
    </message>
    <message>
        <source>Open file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <source>Subtitles…</source>
        <translation>字幕…</translation>
    </message>
    <message>
        <source>Read and fix the subtitles beside the video, with playback</source>
        <translation>边播放边查看和修改视频旁的字幕</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Select an item to read its details.</source>
        <translation>选择一项以查看其详情。</translation>
    </message>
    <message>
        <source>Everything is paused: use Resume all</source>
        <translation>全部已暂停：请使用“全部继续”</translation>
    </message>
    <message>
        <source>Audio track</source>
        <translation>音轨</translation>
    </message>
    <message>
        <source>Remove the job for {folder} and its work in progress?
Files next to your media are not touched.</source>
        <translation>移除 {folder} 的任务及其进行中的工作？
媒体文件旁边的文件不会被改动。</translation>
    </message>
    <message>
        <source>Nothing to open it with</source>
        <translation>没有可用的打开程序</translation>
    </message>
    <message>
        <source>This desktop has no application set to open {path}.</source>
        <translation>此桌面没有设置用于打开 {path} 的应用程序。</translation>
    </message>
    <message>
        <source>Its location is selectable below; set a default application for this kind of file (or a file manager) in your desktop&apos;s settings.</source>
        <translation>下方可复制其位置；请在桌面设置中为此类文件（或文件管理器）设置默认应用程序。</translation>
    </message>
</context>
<context>
    <name>ReviewPanel</name>
    <message>
        <source>Applied</source>
        <translation>已生效</translation>
    </message>
    <message>
        <source>Keep the file as it is now; the step counts as done.</source>
        <translation>保留文件当前的样子；此步骤算作完成。</translation>
    </message>
    <message>
        <source>Not applied</source>
        <translation>未生效</translation>
    </message>
    <message>
        <source>Write Sidecar&apos;s version again.</source>
        <translation>重新写入 Sidecar 的版本。</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Give up on this item (a reason is required).</source>
        <translation>放弃此项（需填写原因）。</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>源文件：</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>Details:</source>
        <translation>详情：</translation>
    </message>
    <message>
        <source>Why:</source>
        <translation>需要审核的原因：</translation>
    </message>
    <message>
        <source>Reason (recorded with the decision)</source>
        <translation>原因（与决定一起记录）</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>您的决定理由：</translation>
    </message>
    <message>
        <source>Nothing awaits review.</source>
        <translation>没有待审核的内容。</translation>
    </message>
    <message>
        <source>When Sidecar cannot prove what happened to a file it wrote (the disk was unplugged, someone edited it), the file waits here for your decision.</source>
        <translation>当 Sidecar 无法确认它写入的文件发生了什么（磁盘被拔出、有人编辑了它）时，该文件会在这里等待您的决定。</translation>
    </message>
    <message>
        <source>{name}
    in {folder}</source>
        <translation>{name}
    位于 {folder}</translation>
    </message>
    <message>
        <source>sha256 written {written}, found {found}; attempts {attempts}; revision {revision}</source>
        <translation>写入的 sha256 {written}，现有 {found}；尝试 {attempts} 次；修订 {revision}</translation>
    </message>
    <message>
        <source>(file missing)</source>
        <translation>（文件不存在）</translation>
    </message>
    <message>
        <source>Give a reason to skip this item.</source>
        <translation>请填写跳过此项的原因。</translation>
    </message>
    <message>
        <source>{name}: recorded “{decision}” (revision {revision}).</source>
        <translation>{name}：已记录“{decision}”（修订号 {revision}）。</translation>
    </message>
    <message>
        <source>Your decision was not recorded: {message}.</source>
        <translation>你的决定未被记录：{message}。</translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <source>Search images and dialogue — “cat wearing sunglasses”, “invoice 4471”…</source>
        <translation>搜索图片和对白 —— “戴墨镜的猫”、“发票 4471”…</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Find similar</source>
        <translation>查找相似</translation>
    </message>
    <message>
        <source>Images that look like the selected one</source>
        <translation>与所选图片相似的图片</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Dialogue</source>
        <translation>对白</translation>
    </message>
    <message>
        <source>Search images and dialogue — “invoice 4471”, “train to Berlin”…</source>
        <translation>搜索图片和对白 — “发票 4471”、“去柏林的火车”…</translation>
    </message>
    <message>
        <source>Searching for “{query}”…</source>
        <translation>正在搜索“{query}”…</translation>
    </message>
    <message>
        <source>Images similar to {name}…</source>
        <translation>与 {name} 相似的图片…</translation>
    </message>
    <message numerus="yes">
        <source>Images (%n)</source>
        <translation>
            <numerusform>图片 (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Dialogue (%n)</source>
        <translation>
            <numerusform>对白 (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n result(s) for “{query}”</source>
        <translation>
            <numerusform>“{query}”的结果：%n 条</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing matches “{query}”.</source>
        <translation>没有与“{query}”匹配的内容。</translation>
    </message>
    <message>
        <source>Matched the translation of “{text}”</source>
        <translation>匹配了“{text}”的译文</translation>
    </message>
    <message>
        <source>Matched the query translated as “{text}”</source>
        <translation>匹配了译成“{text}”的查询</translation>
    </message>
    <message>
        <source>Matched by meaning</source>
        <translation>按含义匹配</translation>
    </message>
    <message>
        <source>Matched by what the picture shows</source>
        <translation>按图片内容匹配</translation>
    </message>
    <message>
        <source>Matched the words</source>
        <translation>匹配了字词</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Translate to:</source>
        <translation>翻译为：</translation>
    </message>
    <message>
        <source>Spoken language:</source>
        <translation>语音语言：</translation>
    </message>
    <message>
        <source>The language spoken in the videos; empty: detected in each file</source>
        <translation>视频中所说的语言；留空：逐个文件自动检测</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <source>The language subtitles are translated into; empty: transcripts only</source>
        <translation>字幕翻译成的语言；留空：只写转录文本</translation>
    </message>
    <message>
        <source>Don&apos;t translate</source>
        <translation>不翻译</translation>
    </message>
    <message>
        <source>Subtitle names:</source>
        <translation>字幕文件命名：</translation>
    </message>
    <message>
        <source>How subtitle files are named: Movie.zh.srt for media servers, or Movie.CN.srt</source>
        <translation>字幕文件的命名方式：媒体服务器用 Movie.zh.srt，或 Movie.CN.srt</translation>
    </message>
    <message>
        <source>Existing files:</source>
        <translation>已有文件：</translation>
    </message>
    <message>
        <source>What a new job does where a subtitle or sidecar it would write already exists</source>
        <translation>新任务要写入的字幕或附属文件已存在时如何处理</translation>
    </message>
    <message>
        <source>Skip: leave the existing file alone</source>
        <translation>跳过：不动已有的文件</translation>
    </message>
    <message>
        <source>Overwrite it</source>
        <translation>覆盖它</translation>
    </message>
    <message>
        <source>Keep both (Movie.zh.1.srt)</source>
        <translation>两个都保留 (Movie.zh.1.srt)</translation>
    </message>
    <message>
        <source>Write photo.jpg.sidecar.json next to each image</source>
        <translation>在每张图片旁写入 photo.jpg.sidecar.json</translation>
    </message>
    <message>
        <source>An indexed image gets a JSON file beside it with what Sidecar found in it</source>
        <translation>每张已索引的图片旁写入一个 photo.jpg.sidecar.json 文件，记录 Sidecar 在其中发现的内容</translation>
    </message>
    <message>
        <source>Skip videos that already carry text subtitles in the target language</source>
        <translation>跳过已内嵌目标语言文字字幕的视频</translation>
    </message>
    <message>
        <source>A text subtitle stream in the target language inside a video counts as subtitled</source>
        <translation>视频内已有目标语言的文字字幕流即视为已有字幕</translation>
    </message>
    <message>
        <source>Subtitle rules:</source>
        <translation>字幕规则：</translation>
    </message>
    <message>
        <source>How cues are cut: Netflix&apos;s style guide per language (42 characters a line, Chinese 16, Japanese 13; 2 lines; 5/6–7 s; 20 characters/s in English, 17 in most languages), relaxed (longer lines, faster reading) or custom</source>
        <translation>字幕条如何切分：按语言采用 Netflix 风格指南（每行 42 个字符，中文 16、日文 13；最多 2 行；5/6–7 秒；英语每秒 20 个字符，多数语言 17），宽松（行更长、阅读更快）或自定义</translation>
    </message>
    <message>
        <source>Netflix style guide</source>
        <translation>Netflix 风格指南</translation>
    </message>
    <message>
        <source>Relaxed</source>
        <translation>宽松</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Line length (custom):</source>
        <translation>每行长度（自定义）：</translation>
    </message>
    <message>
        <source>The custom rules&apos; line length for Latin text; Chinese, Japanese and Korean keep their share</source>
        <translation>自定义规则中拉丁文字的行长；中文、日文和韩文按比例换算</translation>
    </message>
    <message>
        <source>Reading speed (custom):</source>
        <translation>阅读速度（自定义）：</translation>
    </message>
    <message>
        <source>The custom rules&apos; characters per second; translations faster than this are flagged</source>
        <translation>自定义规则的每秒字符数；超过此速度的译文会被标记</translation>
    </message>
    <message>
        <source>characters/s</source>
        <translation>字符/秒</translation>
    </message>
    <message>
        <source>Also write WebVTT (.vtt) beside each .srt</source>
        <translation>在每个 .srt 旁同时写入 WebVTT (.vtt)</translation>
    </message>
    <message>
        <source>For browsers and players that read WebVTT: Movie.ja.vtt beside Movie.ja.srt</source>
        <translation>供读取 WebVTT 的浏览器和播放器使用：Movie.ja.srt 旁的 Movie.ja.vtt</translation>
    </message>
    <message>
        <source>Keep sound tags such as [music], ♪ and (applause)</source>
        <translation>保留 [music]、♪、(applause) 等声音标记</translation>
    </message>
    <message>
        <source>Off: sound tags are removed from the subtitles, and a cue holding nothing else is left out</source>
        <translation>关闭：从字幕中删除声音标记，只含声音标记的字幕条将被省略</translation>
    </message>
    <message>
        <source>Speaker labels:</source>
        <translation>标注说话人：</translation>
    </message>
    <message>
        <source>Tell voices apart: a style per speaker in the bilingual subtitles, dialogue dashes when two share a cue, `[Speaker 1]` in transcripts. Needs the speaker model (`sidecar models install speakers-ge2e`)</source>
        <translation>区分不同的声音：双语字幕中每位说话人使用各自的样式，两人共用一条字幕时加对话破折号，文字稿中标注 `[Speaker 1]`。需要说话人模型（`sidecar models install speakers-ge2e`）</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Count the speakers</source>
        <translation>自动计数说话人</translation>
    </message>
    <message>
        <source>Translation server:</source>
        <translation>翻译服务器：</translation>
    </message>
    <message>
        <source>An OpenAI-compatible server that translates the subtitle text; empty: translate on this computer</source>
        <translation>翻译字幕文本的 OpenAI 兼容服务器；留空：在本机翻译</translation>
    </message>
    <message>
        <source>empty: translate on this computer</source>
        <translation>留空：在本机翻译</translation>
    </message>
    <message>
        <source>Model on the server:</source>
        <translation>服务器上的模型：</translation>
    </message>
    <message>
        <source>The model the translation server is asked for; empty: the server&apos;s own choice</source>
        <translation>向翻译服务器请求的模型；留空：由服务器决定</translation>
    </message>
    <message>
        <source>empty: the server&apos;s default</source>
        <translation>留空：服务器默认</translation>
    </message>
    <message>
        <source>Names and terms:</source>
        <translation>名称和术语：</translation>
    </message>
    <message>
        <source>The library&apos;s own words: speech recognition hears each term as written and a translation must render it as given; the terms a job is given join these</source>
        <translation>媒体库自己的词汇：语音识别按此写法识别每个术语，翻译必须按给定方式呈现；任务自带的术语会并入其中</translation>
    </message>
    <message>
        <source>Term</source>
        <translation>术语</translation>
    </message>
    <message>
        <source>Rendering in translations (optional)</source>
        <translation>译文中的写法（可选）</translation>
    </message>
    <message>
        <source>Workers:</source>
        <translation>工作进程数：</translation>
    </message>
    <message>
        <source>How many steps run at once</source>
        <translation>同时运行的步骤数</translation>
    </message>
    <message>
        <source>GPU memory budget:</source>
        <translation>GPU 显存预算：</translation>
    </message>
    <message>
        <source>How much of the GPU&apos;s memory the models may take together</source>
        <translation>模型合计可占用的 GPU 显存</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
    <message>
        <source>Stop a stalled stage after:</source>
        <translation>停止停滞的阶段，等待：</translation>
    </message>
    <message>
        <source>A stage with no progress for this long is stopped (stalled)</source>
        <translation>阶段在这么长时间内没有进展即被停止（停滞）</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Images per batch:</source>
        <translation>每批图片数：</translation>
    </message>
    <message>
        <source>How many images an image stage (captions, text, search vectors) hands its model at once; more is faster on a GPU and takes more memory</source>
        <translation>图片阶段（描述、文字、搜索向量）一次交给模型的图片数；数量越多在 GPU 上越快，占用内存也越多</translation>
    </message>
    <message>
        <source>Files per model group:</source>
        <translation>每个模型组的文件数：</translation>
    </message>
    <message>
        <source>How many files are transcribed before they are translated, so each model loads once a group</source>
        <translation>先转写多少个文件再翻译，使每个模型每组只加载一次</translation>
    </message>
    <message>
        <source>Library database:</source>
        <translation>资料库数据库：</translation>
    </message>
    <message>
        <source>A library shared by several machines: postgresql+psycopg://user@server/sidecar; empty: the library on this computer</source>
        <translation>多台机器共享的资料库：postgresql+psycopg://user@server/sidecar；留空：本机上的资料库</translation>
    </message>
    <message>
        <source>empty: the library on this computer</source>
        <translation>留空：使用本机上的媒体库</translation>
    </message>
    <message>
        <source>Work on weekdays:</source>
        <translation>工作日工作时间：</translation>
    </message>
    <message>
        <source>When Sidecar works from Monday to Friday</source>
        <translation>Sidecar 在周一至周五的工作时间</translation>
    </message>
    <message>
        <source>Work on weekends:</source>
        <translation>周末工作时间：</translation>
    </message>
    <message>
        <source>When Sidecar works on Saturday and Sunday</source>
        <translation>Sidecar 在周六和周日的工作时间</translation>
    </message>
    <message>
        <source>On battery:</source>
        <translation>使用电池时：</translation>
    </message>
    <message>
        <source>What Sidecar does while the computer runs on its battery</source>
        <translation>电脑使用电池供电时 Sidecar 的做法</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Keep going</source>
        <translation>继续工作</translation>
    </message>
    <message>
        <source>Pause below a charge</source>
        <translation>电量低于某值时暂停</translation>
    </message>
    <message>
        <source>Pause below:</source>
        <translation>低于此电量时暂停：</translation>
    </message>
    <message>
        <source>On battery, work pauses once the charge is below this</source>
        <translation>使用电池时，电量低于此值即暂停工作</translation>
    </message>
    <message>
        <source>Use at most:</source>
        <translation>最多使用：</translation>
    </message>
    <message>
        <source>Cores for the workers and each model&apos;s threads</source>
        <translation>供工作进程和每个模型的线程使用的核心数</translation>
    </message>
    <message>
        <source>cores</source>
        <translation>个核心</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Pause while I use the computer</source>
        <translation>我使用电脑时暂停</translation>
    </message>
    <message>
        <source>Work waits while there was keyboard or mouse input lately</source>
        <translation>最近有键盘或鼠标输入时，工作会等待</translation>
    </message>
    <message>
        <source>Input in the last:</source>
        <translation>多久内有输入：</translation>
    </message>
    <message>
        <source>How recent input must be to count as using the computer</source>
        <translation>输入在多久之内才算正在使用电脑</translation>
    </message>
    <message>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>Tell me when a job finishes</source>
        <translation>任务完成时通知我</translation>
    </message>
    <message>
        <source>A desktop notification when a job is done</source>
        <translation>任务完成时发送桌面通知</translation>
    </message>
    <message>
        <source>Tell me when something needs my decision</source>
        <translation>有事项需要我决定时通知我</translation>
    </message>
    <message>
        <source>A desktop notification when a file waits in Review</source>
        <translation>有文件在“待审核”中等待时发送桌面通知</translation>
    </message>
    <message>
        <source>Tell me when items fail</source>
        <translation>有文件失败时通知我</translation>
    </message>
    <message>
        <source>A desktop notification when files fail</source>
        <translation>有文件失败时发送桌面通知</translation>
    </message>
    <message>
        <source>Start Sidecar in the tray when I log in</source>
        <translation>登录时在托盘中启动 Sidecar</translation>
    </message>
    <message>
        <source>Sidecar starts in the tray when you log in</source>
        <translation>登录时 Sidecar 在托盘中启动</translation>
    </message>
    <message>
        <source>Leave out:</source>
        <translation>排除：</translation>
    </message>
    <message>
        <source>One name a line; * and ? match any text; a name ending in / matches folders only</source>
        <translation>每行一个名称；* 和 ? 匹配任意文字；以 / 结尾的名称只匹配文件夹</translation>
    </message>
    <message>
        <source>Watched folders:</source>
        <translation>监视的文件夹：</translation>
    </message>
    <message>
        <source>New, changed, moved and deleted media in these folders is followed by itself</source>
        <translation>这些文件夹中新增、更改、移动和删除的媒体会被自动跟进</translation>
    </message>
    <message>
        <source>Wait for a file to settle:</source>
        <translation>等待文件稳定：</translation>
    </message>
    <message>
        <source>A watched file is queued once its size and time held still this long</source>
        <translation>被监视的文件在大小和时间保持不变这么久后才加入队列</translation>
    </message>
    <message>
        <source>Server address:</source>
        <translation>服务器地址：</translation>
    </message>
    <message>
        <source>Where `sidecar serve` listens; any address but loopback needs serve_token</source>
        <translation>`sidecar serve` 的监听地址；回环以外的地址需要 serve_token</translation>
    </message>
    <message>
        <source>Server port:</source>
        <translation>服务器端口：</translation>
    </message>
    <message>
        <source>The port `sidecar serve` listens on</source>
        <translation>`sidecar serve` 监听的端口</translation>
    </message>
    <message>
        <source>Server token:</source>
        <translation>服务器令牌：</translation>
    </message>
    <message>
        <source>The token clients send (Authorization: Bearer, the URL&apos;s password, or ?token=); required off loopback</source>
        <translation>客户端发送的令牌（Authorization: Bearer、URL 密码或 ?token=）；非回环地址时必需</translation>
    </message>
    <message>
        <source>Largest upload:</source>
        <translation>最大上传：</translation>
    </message>
    <message>
        <source>Uploads to /asr and /detect-language larger than this are refused (413)</source>
        <translation>超过此大小的 /asr 和 /detect-language 上传会被拒绝（413）</translation>
    </message>
    <message>
        <source>Media server paths:</source>
        <translation>媒体服务器路径：</translation>
    </message>
    <message>
        <source>SERVER_PREFIX=LOCAL_PREFIX lines: a media server&apos;s path of a file as a path here</source>
        <translation>每行 SERVER_PREFIX=LOCAL_PREFIX：把媒体服务器上的文件路径换成本机路径</translation>
    </message>
    <message>
        <source>Jellyfin address:</source>
        <translation>Jellyfin 地址：</translation>
    </message>
    <message>
        <source>Jellyfin&apos;s URL, asked to refresh an item</source>
        <translation>Jellyfin 的 URL，用于请求刷新条目</translation>
    </message>
    <message>
        <source>Jellyfin API key:</source>
        <translation>Jellyfin API 密钥：</translation>
    </message>
    <message>
        <source>An API key from Jellyfin&apos;s dashboard</source>
        <translation>Jellyfin 控制台中的 API 密钥</translation>
    </message>
    <message>
        <source>Emby address:</source>
        <translation>Emby 地址：</translation>
    </message>
    <message>
        <source>Emby&apos;s URL, asked to refresh an item</source>
        <translation>Emby 的 URL，用于请求刷新条目</translation>
    </message>
    <message>
        <source>Emby API key:</source>
        <translation>Emby API 密钥：</translation>
    </message>
    <message>
        <source>An API key from Emby&apos;s settings</source>
        <translation>Emby 设置中的 API 密钥</translation>
    </message>
    <message>
        <source>Plex address:</source>
        <translation>Plex 地址：</translation>
    </message>
    <message>
        <source>Plex&apos;s URL, asked for a new item&apos;s file and to refresh it</source>
        <translation>Plex 的 URL，用于查询新条目的文件并请求刷新</translation>
    </message>
    <message>
        <source>Plex token:</source>
        <translation>Plex 令牌：</translation>
    </message>
    <message>
        <source>Your X-Plex-Token</source>
        <translation>你的 X-Plex-Token</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>界面语言：</translation>
    </message>
    <message>
        <source>The language of Sidecar&apos;s windows; System follows the computer&apos;s</source>
        <translation>Sidecar 窗口的语言；“系统”跟随电脑的语言</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Closing the window keeps processing in the tray</source>
        <translation>关闭窗口后在系统托盘中继续处理</translation>
    </message>
    <message>
        <source>Sidecar keeps working in the tray after its window is closed</source>
        <translation>关闭窗口后 Sidecar 继续在托盘中工作</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>New jobs will use the changed output settings; jobs already added keep the settings they were created with.</source>
        <translation>新任务将使用更改后的输出设置；已添加的任务保留创建时的设置。</translation>
    </message>
    <message>
        <source>New jobs leave out the changed list; watched folders follow it the next time Sidecar starts.</source>
        <translation>新任务会略过更改后的列表；监视的文件夹在 Sidecar 下次启动时采用它。</translation>
    </message>
    <message>
        <source>Sidecar shows the chosen language the next time it starts.</source>
        <translation>Sidecar 下次启动时将显示所选语言。</translation>
    </message>
    <message>
        <source>Sidecar opens the other library database the next time it starts.</source>
        <translation>Sidecar 将在下次启动时打开另一个媒体库数据库。</translation>
    </message>
    <message>
        <source>Sidecar settings</source>
        <translation>Sidecar 设置</translation>
    </message>
    <message>
        <source>Media servers see no language in “CN”: use media-server unless your library already uses these names.</source>
        <translation>媒体服务器无法从“CN”识别语言：除非你的媒体库已在使用这种命名，否则请选 media-server。</translation>
    </message>
    <message>
        <source>The library on this computer: {path}</source>
        <translation>本机上的资料库：{path}</translation>
    </message>
    <message>
        <source>Restore defaults</source>
        <translation>恢复默认值</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <source>For</source>
        <translation>用途</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>In use</source>
        <translation>使用中</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Install</source>
        <translation>安装</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>使用</translation>
    </message>
    <message>
        <source>Cancel install</source>
        <translation>取消安装</translation>
    </message>
    <message>
        <source>Download the selected model (an interrupted download resumes)</source>
        <translation>下载所选模型（中断的下载会接着继续）</translation>
    </message>
    <message>
        <source>New jobs use the selected model for its role</source>
        <translation>新任务将使用所选模型来完成它的用途</translation>
    </message>
    <message>
        <source>Delete a downloaded model, or forget one you registered (its files stay)</source>
        <translation>删除已下载的模型，或移除你登记的模型（其文件保留）</translation>
    </message>
    <message>
        <source>Install from file…</source>
        <translation>从文件安装…</translation>
    </message>
    <message>
        <source>A translation package (.argosmodel) downloaded on another computer: installed without internet, checked before it is used</source>
        <translation>在另一台电脑上下载的翻译包（.argosmodel）：无需联网即可安装，使用前会先校验</translation>
    </message>
    <message>
        <source>With both work windows set to “Not at all”, Sidecar never works: jobs wait for ever.</source>
        <translation>两个工作时段都设为“不工作”时，Sidecar 永远不会工作：任务会一直等待。</translation>
    </message>
    <message>
        <source>{name} (placeholder)</source>
        <translation>{name}（占位）</translation>
    </message>
    <message>
        <source>{name} (recommended)</source>
        <translation>{name}（推荐）</translation>
    </message>
    <message>
        <source>A placeholder that comes with Sidecar so translation works without a download: most of its lines are wrong and Sidecar refuses them, so most videos get only their transcript. Install a recommended translation model, or set a translation server.</source>
        <translation>Sidecar 自带的占位模型，让翻译无需下载即可运行：它译出的大多数行是错的，Sidecar 会拒绝它们，因此大多数视频只会得到转写。请安装推荐的翻译模型，或设置翻译服务器。</translation>
    </message>
    <message>
        <source>Recommended: good enough on a CPU, with a licence that allows any use.</source>
        <translation>推荐：在 CPU 上也够用，许可证允许任何用途。</translation>
    </message>
    <message>
        <source>transcription</source>
        <translation>转写</translation>
    </message>
    <message>
        <source>translation</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>text search over descriptions and dialogue</source>
        <translation>在描述和对白中搜索文字</translation>
    </message>
    <message>
        <source>text recognition in images</source>
        <translation>识别图片中的文字</translation>
    </message>
    <message>
        <source>image search by picture content (CLIP)</source>
        <translation>按画面内容搜索图片（CLIP）</translation>
    </message>
    <message>
        <source>speaker labels in subtitles and transcripts</source>
        <translation>字幕和文字稿中的说话人标注</translation>
    </message>
    <message>
        <source>Install a translation package</source>
        <translation>安装翻译包</translation>
    </message>
    <message>
        <source>Translation packages (*.argosmodel);;All files (*)</source>
        <translation>翻译包 (*.argosmodel);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Installing {name}…</source>
        <translation>正在安装 {name}…</translation>
    </message>
    <message>
        <source>Licence: {licence}.</source>
        <translation>许可证：{licence}。</translation>
    </message>
    <message>
        <source>Credit: {attribution}.</source>
        <translation>署名：{attribution}。</translation>
    </message>
    <message>
        <source>Unverified: no published checksum; the first download is pinned and every later one must match it.</source>
        <translation>未校验：没有公布的校验和；首次下载会被记录，之后的每次下载都必须与之一致。</translation>
    </message>
    <message>
        <source>Used by itself for {pair} once installed (and through English for other pairs).</source>
        <translation>安装后自动用于 {pair}（其他语言对经由英语转译）。</translation>
    </message>
    <message>
        <source>Installing {name} failed: {why}</source>
        <translation>安装 {name} 失败：{why}</translation>
    </message>
    <message>
        <source>Checking the translation server…</source>
        <translation>正在检查翻译服务器…</translation>
    </message>
    <message>
        <source>Checking the library database…</source>
        <translation>正在检查资料库数据库…</translation>
    </message>
    <message>
        <source>Correct the address, or empty it to keep the library on this computer.</source>
        <translation>请更正地址，或将其留空以继续使用本机上的资料库。</translation>
    </message>
    <message>
        <source>The translation server answers.</source>
        <translation>翻译服务器有响应。</translation>
    </message>
    <message>
        <source>The translation server does not answer: {reason}</source>
        <translation>翻译服务器没有响应：{reason}</translation>
    </message>
    <message>
        <source>Correct the address, or Save again to keep it (for a server you start later); jobs wait for it and then write the transcript alone.</source>
        <translation>请更正地址，或再次点“保存”保留它（适用于稍后才启动的服务器）；任务会等待它，之后只写入转写。</translation>
    </message>
    <message>
        <source>Output (new jobs)</source>
        <translation>输出（新任务）</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Output</source>
        <extracomment>The tabs and the sections on each, in order. A section builder takes the dialog and returns a self-contained widget; a declared section (:func:`declared`) shows the settings whose declaration names it, so a new setting needs no entry here.</extracomment>
        <translation>输出</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>Names and terms of your library (characters, products, places): speech recognition listens for them as written, and translations must render them as given. New jobs use this list together with their own terms.</source>
        <translation>媒体库中的名称和术语（角色、产品、地点）：语音识别会按此写法识别它们，翻译必须按给定的译名呈现。新任务会把此列表与任务自己的术语一起使用。</translation>
    </message>
    <message>
        <source>Processing</source>
        <translation>处理</translation>
    </message>
    <message>
        <source>Schedule &amp; power</source>
        <translation>计划与电源</translation>
    </message>
    <message>
        <source>Outside these hours the running step stops at its next checkpoint (its progress is kept) and nothing new starts.</source>
        <translation>在这些时间之外，正在运行的步骤会在下一个检查点停止（保留进度），且不会开始新的工作。</translation>
    </message>
    <message>
        <source>Folders</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Library database</source>
        <translation>资料库数据库</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Bazarr and media servers</source>
        <translation>Bazarr 与媒体服务器</translation>
    </message>
    <message>
        <source>Read by `sidecar serve` when it starts: Bazarr&apos;s Whisper provider, and Jellyfin, Emby or Plex told of new files and asked to refresh them (README: With Jellyfin, Plex, Emby and Bazarr).</source>
        <translation>`sidecar serve` 启动时读取：供 Bazarr 的 Whisper 提供程序使用，并接收 Jellyfin、Emby 或 Plex 的新文件通知、请求它们刷新条目（见 README：With Jellyfin, Plex, Emby and Bazarr）。</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>The language of Sidecar&apos;s windows changes the next time Sidecar starts.</source>
        <translation>Sidecar 窗口的语言在下次启动时更改。</translation>
    </message>
    <message>
        <source>Scanning</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Left out of every added or watched folder (system and hidden files, as media servers skip them); the folder you add itself is always scanned:</source>
        <translation>在每个添加或监视的文件夹中略过以下名称（系统文件和隐藏文件，媒体服务器也会跳过它们）；你添加的文件夹本身总会被扫描：</translation>
    </message>
    <message>
        <source>Watched folders</source>
        <translation>监视的文件夹</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The changed engine settings apply the next time Sidecar starts.</source>
        <translation>更改的引擎设置在 Sidecar 下次启动时生效。</translation>
    </message>
    <message>
        <source>Subtitle text (not audio, not file names) is sent to {endpoint} for translation.</source>
        <translation>字幕文字（不含音频和文件名）会发送到 {endpoint} 进行翻译。</translation>
    </message>
    <message>
        <source>Nothing leaves this computer.</source>
        <translation>任何内容都不会离开本机。</translation>
    </message>
    <message>
        <source>Watch a folder</source>
        <translation>监视文件夹</translation>
    </message>
    <message>
        <source>downloading {percent}%</source>
        <translation>正在下载 {percent}%</translation>
    </message>
    <message>
        <source>downloading</source>
        <translation>正在下载</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>partly downloaded</source>
        <translation>部分已下载</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Downloading {name}…</source>
        <translation>正在下载 {name}…</translation>
    </message>
    <message>
        <source>{name} is installed. Choose “Use” to have new jobs use it.</source>
        <translation>{name} 已安装。选择“使用”，新任务就会用它。</translation>
    </message>
    <message>
        <source>Stopped downloading {name}. What arrived is kept: Install resumes from there.</source>
        <translation>已停止下载 {name}。已下载的部分会保留：再次安装时从那里继续。</translation>
    </message>
</context>
<context>
    <name>States</name>
    <message>
        <source>Creating</source>
        <translation>创建中</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>待审核</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>Transcript only</source>
        <translation>仅转写</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>计算指纹</translation>
    </message>
    <message>
        <source>Extract audio</source>
        <translation>提取音频</translation>
    </message>
    <message>
        <source>Transcribe</source>
        <translation>语音转写</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Render</source>
        <translation>生成字幕</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>写入文件</translation>
    </message>
    <message>
        <source>Index dialogue</source>
        <translation>索引对白</translation>
    </message>
    <message>
        <source>Visual</source>
        <translation>图像分析</translation>
    </message>
    <message>
        <source>Describe</source>
        <translation>生成描述</translation>
    </message>
    <message>
        <source>Text embedding</source>
        <translation>文本索引</translation>
    </message>
</context>
<context>
    <name>TranscriptEditor</name>
    <message>
        <source>Subtitles — {name}</source>
        <extracomment>Cues the translation&apos;s quality check left untranslated, by start time (they follow splits and merges) → the reason; a mark goes when the person edits that cue&apos;s translation.</extracomment>
        <translation>字幕 — {name}</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Original</source>
        <translation>原文</translation>
    </message>
    <message>
        <source>Speaker</source>
        <translation>说话人</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Split at playhead</source>
        <translation>在播放位置拆分</translation>
    </message>
    <message>
        <source>Merge with next</source>
        <translation>与下一条合并</translation>
    </message>
    <message>
        <source>Shift selected</source>
        <translation>移动所选</translation>
    </message>
    <message>
        <source>Rename speaker…</source>
        <translation>重命名说话人…</translation>
    </message>
    <message>
        <source>Give the selected line&apos;s speaker a name: every line of theirs takes it</source>
        <translation>为所选行的说话人命名：其所有行都会使用这个名字</translation>
    </message>
    <message>
        <source>Re-translate</source>
        <translation>重新翻译</translation>
    </message>
    <message>
        <source>Translate this video again from its transcript with another model</source>
        <translation>用另一个模型根据转写文本重新翻译此视频</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>This video cannot be played here ({message}); the subtitles can still be edited.</source>
        <translation>此视频无法在这里播放（{message}）；字幕仍可编辑。</translation>
    </message>
    <message>
        <source> (placeholder: poor translations)</source>
        <translation>（占位：翻译质量差）</translation>
    </message>
    <message>
        <source> (in use)</source>
        <translation>（使用中）</translation>
    </message>
    <message>
        <source>Re-translating with {model}: follow it in the queue, then open the subtitles again. Files you edited are not replaced without asking (Review).</source>
        <translation>正在用 {model} 重新翻译：请在队列中查看进度，完成后再次打开字幕。您编辑过的文件不会在未经询问的情况下被替换（见“审核”）。</translation>
    </message>
    <message>
        <source>No translation: {why} Install a translation model or set a translation server, then choose Translate again in the queue.</source>
        <translation>没有译文：{why} 请安装翻译模型或设置翻译服务器，然后在队列中选择“重新翻译”。</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s) failed the translation check and kept their original text: they are marked in the list. Type their translation and save.</source>
        <translation>
            <numerusform>%n 行未通过翻译检查，保留了原文：已在列表中标出。请输入译文并保存。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not translated: this line failed the translation check ({reason}) and kept its original text.</source>
        <translation>未翻译：此行未通过翻译检查（{reason}），保留了原文。</translation>
    </message>
    <message>
        <source>Move the playhead into the cue to split.</source>
        <translation>请把播放位置移到要拆分的字幕条内。</translation>
    </message>
    <message>
        <source>The playhead is too close to the cue&apos;s start or end to split there.</source>
        <translation>播放位置离字幕条的开头或结尾太近，无法在此拆分。</translation>
    </message>
    <message>
        <source>Select a cue that has a next one to merge with.</source>
        <translation>请选择一条后面还有字幕的字幕条来合并。</translation>
    </message>
    <message>
        <source>Select the cues to move and how far.</source>
        <translation>请选择要移动的字幕条和移动的距离。</translation>
    </message>
    <message>
        <source>Select a line of the speaker to rename.</source>
        <translation>请选择要重命名的说话人的一行。</translation>
    </message>
    <message>
        <source>Rename speaker</source>
        <translation>重命名说话人</translation>
    </message>
    <message>
        <source>Name for {speaker}:</source>
        <translation>{speaker} 的名字：</translation>
    </message>
    <message>
        <source>A speaker needs a name.</source>
        <translation>说话人需要一个名字。</translation>
    </message>
    <message>
        <source>Saved next to the video. Sidecar will not overwrite your edit: a later run asks in Review first.</source>
        <translation>已保存在视频旁。Sidecar 不会覆盖您的修改：以后的运行会先在“审核”中询问。</translation>
    </message>
    <message>
        <source>{message} ({code})</source>
        <translation>{message}（{code}）</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Unsaved edits</source>
        <translation>未保存的修改</translation>
    </message>
    <message>
        <source>Save your edits to the subtitles of {name}?</source>
        <translation>保存对 {name} 字幕的修改吗？</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>Sidecar — starting</source>
        <translation>Sidecar — 正在启动</translation>
    </message>
    <message>
        <source>Show / hide</source>
        <translation>显示 / 隐藏</translation>
    </message>
    <message>
        <source>Pause for 1 hour</source>
        <translation>暂停 1 小时</translation>
    </message>
    <message>
        <source>Pause until tomorrow morning</source>
        <translation>暂停至明天早上</translation>
    </message>
    <message>
        <source>Resume now</source>
        <translation>立即继续</translation>
    </message>
    <message>
        <source>Pause all</source>
        <translation>全部暂停</translation>
    </message>
    <message>
        <source>Resume all</source>
        <translation>全部继续</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>Welcome to Sidecar</source>
        <translation>欢迎使用 Sidecar</translation>
    </message>
    <message>
        <source>Drop folders of videos, audio recordings and photos. Sidecar works through them in the background: it subtitles every video, transcribes every recording and makes every photo searchable. Your files are never changed or moved; results are written next to them.</source>
        <translation>拖入视频、音频录音和照片文件夹。Sidecar 会在后台处理：为每个视频生成字幕，为每段录音生成转写，让每张照片都能被搜索。您的文件不会被修改或移动；结果写在它们旁边。</translation>
    </message>
    <message>
        <source>Languages and files</source>
        <translation>语言和文件</translation>
    </message>
    <message>
        <source>Spoken language:</source>
        <translation>说话语言：</translation>
    </message>
    <message>
        <source>Subtitles in:</source>
        <translation>字幕语言：</translation>
    </message>
    <message>
        <source>Written next to your files:</source>
        <translation>写在您的文件旁：</translation>
    </message>
    <message>
        <source>optional, e.g. ComfyUI; Jon Snow = Jon Schnee</source>
        <translation>可选，例如 ComfyUI；琼恩·雪诺</translation>
    </message>
    <message>
        <source>Names and terms said in your recordings, separated by semicolons: speech recognition listens for them as written</source>
        <translation>录音中出现的名称和术语，用分号分隔：语音识别会按此写法识别它们</translation>
    </message>
    <message>
        <source>Names and terms:</source>
        <translation>名称和术语：</translation>
    </message>
    <message>
        <source>Later: transcripts now; each video waits for its translator, named in the list, and is translated by itself once it is installed.</source>
        <translation>稍后：现在先生成转写稿；每个视频会等待列表中注明的翻译模型，安装后自动翻译。</translation>
    </message>
    <message>
        <source>An OpenAI-compatible server (LM Studio, Ollama, llama.cpp server…)</source>
        <translation>兼容 OpenAI 的服务器（LM Studio、Ollama、llama.cpp server…）</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>model name (optional)</source>
        <translation>模型名称（可选）</translation>
    </message>
    <message>
        <source>The text of each subtitle is sent to this address to be translated; audio, pictures and file names stay on this computer.</source>
        <translation>每条字幕的文字会发送到这个地址进行翻译；音频、图片和文件名都留在这台电脑上。</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>地址：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Drop folders or files here</source>
        <translation>把文件夹或文件拖到这里</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Keep the current settings; they can be changed any time in Settings.</source>
        <translation>保留当前设置；随时可以在“设置”中更改。</translation>
    </message>
    <message>
        <source>size shown while downloading</source>
        <translation>大小在下载时显示</translation>
    </message>
    <message>
        <source>Download the {pair} translator ({name}, {size}, licence {licence}): translations made on this computer, no internet needed afterwards.</source>
        <translation>下载 {pair} 翻译模型（{name}，{size}，许可证 {licence}）：在本机翻译，之后无需联网。</translation>
    </message>
    <message>
        <source>for Holiday.mp4: {videos}</source>
        <translation>Holiday.mp4 对应：{videos}</translation>
    </message>
    <message>
        <source>for Holiday.mp4 spoken in English: {videos}</source>
        <translation>说英语的 Holiday.mp4 对应：{videos}</translation>
    </message>
    <message>
        <source>for cat.jpg: {json} (what the photo shows and the text in it)</source>
        <translation>cat.jpg 对应：{json}（照片内容和其中的文字）</translation>
    </message>
    <message>
        <source>Installed.</source>
        <translation>已安装。</translation>
    </message>
    <message>
        <source>Stopped. Download again to resume where it stopped.</source>
        <translation>已停止。再次下载会从停止处继续。</translation>
    </message>
    <message>
        <source>The download failed ({code}); the status bar says why.</source>
        <translation>下载失败（{code}）；原因见状态栏。</translation>
    </message>
</context>
<context>
    <name>WindowEdit</name>
    <message>
        <source>All day</source>
        <translation>全天</translation>
    </message>
    <message>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <source>Not at all</source>
        <translation>不工作</translation>
    </message>
    <message>
        <source>to</source>
        <translation>到</translation>
    </message>
</context>
<context>
    <name>WorkersModel</name>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <source>Desktop app</source>
        <translation>桌面应用</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>{seconds} s ago</source>
        <translation>{seconds} 秒前</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>WorkersView</name>
    <message>
        <source>Every Sidecar engine working on this library, on this computer and on others. One that stopped beating is shown grey; its work goes back to the queue.</source>
        <translation>在此媒体库上工作的每个 Sidecar 引擎，包括本机和其他计算机上的。停止心跳的引擎显示为灰色，其工作会回到队列。</translation>
    </message>
</context>
</TS>
