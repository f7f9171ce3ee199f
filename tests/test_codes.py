"""The stable codes: one registry (app.codes.Code) that every raise, record and view reads (issue 22.3)."""

from __future__ import annotations

import ast
from pathlib import Path

from app.codes import EXPLANATIONS, Code, explain
from app.errors import MediaError, OutOfDeviceMemory, SidecarError, error_for

APP = Path(__file__).resolve().parent.parent / "app"

#: Every code as it is stored in libraries and printed in JSON today: a value may be added, never changed.
STORED = {
    'already_subtitled', 'already_watched', 'bad_database_url', 'bundled_model', 'bundled_model_missing',
    'cancelled', 'catalogue_invalid', 'catalogue_missing', 'changed_on_disk', 'checksum_mismatch', 'corrupt_media',
    'crash_loop', 'database_too_new', 'database_unavailable', 'disk_full', 'downgrade_refused',
    'download_cancelled', 'download_failed', 'embedded_subtitles', 'endpoint_error', 'endpoint_unavailable',
    'engine_starting', 'file_missing', 'file_removed', 'file_vanished', 'folder_missing', 'gpu_fallback_cpu',
    'gpu_out_of_memory', 'gui_thread_blocked', 'image_too_large', 'install_in_progress', 'internal_error',
    'invalid_argument', 'invalid_model', 'invalid_model_name', 'invalid_name', 'invalid_path_map',
    'invalid_setting', 'item_busy', 'item_in_review', 'item_skipped', 'lease_lost', 'manual_review',
    'mapping_unavailable', 'model_crashed', 'model_error', 'model_invalid', 'model_load_failed', 'model_missing',
    'model_name_taken', 'model_not_installed', 'model_path_missing', 'model_state_corrupt', 'name_too_long',
    'no_audio_stream', 'no_media_kinds', 'no_speech', 'no_subtitles', 'no_visual_model', 'not_downloadable',
    'not_enough_disk', 'not_found', 'not_mapped', 'out_of_memory', 'permission_denied', 'person_edited',
    'prompt_too_long', 'raw_no_preview', 'resource_missing', 'review_conflict', 'role_not_selectable',
    'runtime_error', 'scan_interrupted', 'skipped_by_review', 'stopped', 'superseded', 'symlink_loop',
    'target_changed', 'target_contested', 'transient_error', 'translation_failed', 'translation_fallback',
    'unknown_model', 'unknown_role', 'unreadable_file', 'unreadable_folder', 'unsupported_media', 'watch_missing',
    'watch_overlaps', 'worker_refused', 'workspace_damaged', 'write_failed',
}


def test_no_stored_code_changed_its_string() -> None:
    assert sorted(STORED - {code.value for code in Code}) == []


def _raw_codes(path: Path, root: Path = APP.parent) -> list[str]:
    """Places in ``path`` that name a code with a bare string instead of a :class:`Code` member."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        values: list[ast.expr] = []
        if isinstance(node, ast.Call):
            values += [k.value for k in node.keywords if k.arg in ("code", "error_code")]
        elif isinstance(node, ast.Dict):
            values += [v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == "code"]
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == "code":
                    values.append(node.value)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):  # code, message = "x", "..."
                    values += [v for t, v in zip(target.elts, node.value.elts) if isinstance(t, ast.Name) and t.id == "code"]
        elif isinstance(node, ast.Compare) and isinstance(node.left, (ast.Name, ast.Attribute)):
            name = node.left.id if isinstance(node.left, ast.Name) else node.left.attr
            if name in ("code", "error_code"):
                values += node.comparators
        found += [f"{path.relative_to(root)}:{leaf.lineno} {leaf.value!r}" for value in values for leaf in _leaves(value)]
    return found


def _leaves(value: ast.expr) -> list[ast.Constant]:
    """The non-empty strings ``value`` may be: itself, either branch of ``a if c else b``, any operand of ``a or b``."""
    if isinstance(value, ast.Constant):
        return [value] if isinstance(value.value, str) and value.value else []
    if isinstance(value, ast.IfExp):
        return _leaves(value.body) + _leaves(value.orelse)
    if isinstance(value, ast.BoolOp):
        return [leaf for operand in value.values for leaf in _leaves(operand)]
    return []


def test_the_app_names_every_code_through_the_registry() -> None:
    raw = [hit for path in sorted(APP.rglob("*.py")) if path.name != "codes.py" for hit in _raw_codes(path)]
    assert raw == [], "use a Code member (adding a code is one declaration in app/codes.py)"


def test_the_scan_sees_a_bare_string_code(tmp_path: Path) -> None:
    source = tmp_path / "bad.py"
    source.write_text('raise SidecarError("x", code="stalled")\nproblems.append({"code": "symlink_loop"})\n'
                      'if exc.code == "folder_missing":\n    code = code or "internal_error"\n'
                      'code, message = "person_edited", "yours"\n', encoding="utf-8")
    assert sorted(hit.split(" ")[1] for hit in _raw_codes(source, tmp_path)) == [
        "'folder_missing'", "'internal_error'", "'person_edited'", "'stalled'", "'symlink_loop'"]


def test_every_explained_code_has_a_sentence_and_every_problem_says_what_to_do() -> None:
    without_words = {code for code in Code if code not in EXPLANATIONS}
    assert without_words == {Code.FILE_REMOVED, Code.SUPERSEDED, Code.RUNTIME_ERROR, Code.GPU_FALLBACK_CPU}, \
        "a new code is declared with its words"
    for code, explanation in EXPLANATIONS.items():
        assert explanation.sentence.endswith("."), code
        assert explanation.note or explanation.advice, f"{code} is a problem without advice"
    assert explain("corrupt_media") is Code.CORRUPT_MEDIA.explanation and explain("not_a_code") is None


def test_a_code_is_its_string_in_the_store_and_in_json() -> None:
    import json

    assert Code.FOLDER_MISSING == "folder_missing" and json.dumps({"code": Code.DISK_FULL}) == '{"code": "disk_full"}'
    assert Code.of("no_speech") is Code.NO_SPEECH and Code.of("never_declared") is None


def test_an_error_reported_by_code_comes_back_as_the_class_that_declares_it() -> None:
    oom = error_for(Code.GPU_OUT_OF_MEMORY, "CUDA out of memory", transient=True)
    assert type(oom) is OutOfDeviceMemory and oom.transient and oom.message == "CUDA out of memory"
    assert type(error_for(Code.CORRUPT_MEDIA, "bad", transient=False)) is MediaError
    other = error_for(Code.RUNTIME_ERROR, "boom", transient=True)
    assert type(other) is SidecarError and other.code is Code.RUNTIME_ERROR and other.transient
