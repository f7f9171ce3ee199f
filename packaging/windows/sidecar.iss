; Inno Setup script for Sidecar on Windows: a per-user install (no administrator rights),
; a Start-menu entry, and an optional start with Windows into the tray.
; Built by `python packaging\build.py` when `iscc` is on PATH, which passes:
;   /DAppVersion=0.1.0 /DDistDir=...\dist\Sidecar /DIconFile=...\sidecar.ico /O<output folder>
; Uninstalling removes the program folder only: the library database, settings and
; models in %LOCALAPPDATA%\Sidecar stay, like the subtitles next to the person's files.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#ifndef DistDir
  #define DistDir "..\..\dist\Sidecar"
#endif
#ifndef IconFile
  #define IconFile "..\..\build\icons\sidecar.ico"
#endif

[Setup]
AppId={{6C1A2E55-5D0B-4D8E-9B3A-0A5E1D5C2F11}
AppName=Sidecar
AppVersion={#AppVersion}
AppPublisher=Sidecar
DefaultDirName={localappdata}\Programs\Sidecar
DefaultGroupName=Sidecar
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputBaseFilename=Sidecar-{#AppVersion}-windows-x64-setup
SetupIconFile={#IconFile}
UninstallDisplayIcon={app}\Sidecar.exe
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "Create a desktop shortcut"; Flags: unchecked
Name: "autostart"; Description: "Start Sidecar when I sign in (it waits in the tray)"; Flags: unchecked

[Files]
Source: "{#DistDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\Sidecar"; Filename: "{app}\Sidecar.exe"
Name: "{autodesktop}\Sidecar"; Filename: "{app}\Sidecar.exe"; Tasks: desktopicon

[Registry]
Root: HKCU; Subkey: "Software\Microsoft\Windows\CurrentVersion\Run"; ValueType: string; ValueName: "Sidecar"; \
  ValueData: """{app}\Sidecar.exe"" --tray"; Flags: uninsdeletevalue; Tasks: autostart

[Run]
Filename: "{app}\Sidecar.exe"; Description: "Start Sidecar now"; Flags: nowait postinstall skipifsilent
