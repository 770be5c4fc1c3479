"""Reading and writing the docs/api files on disk and in the index, and what a person is told.

Every path goes through ``docbot.paths`` first (inside the repository, no symlink). A write is
refused when the file changed since docbot read it at the start of the run, so an edit made while
the models worked is never overwritten; the person's version stays and the run says so.
"""

from __future__ import annotations

from pathlib import Path

from docbot import paths
from docbot.apidocs import pages as docs_api
from docbot.apidocs.pages import DocFile
from docbot.errors import ConfigError, RepoError
from docbot.scan.repo import staged_entry
from docbot.results import DocNotice, NoticeKind

_SYMLINK_MODE = "120000"


def docs_folder(repo_root: Path, docs_dir: str) -> Path:
    """The docs folder, checked like every path docbot touches (ConfigError when it leaves the repo)."""
    return paths.inside_repo(repo_root, docs_dir or ".")


def read_text(repo_root: Path, rel: str) -> str | None:
    """A doc file's working-tree text with LF line ends, or None when it does not exist."""
    path = paths.inside_repo(repo_root, rel)
    try:
        data = paths.read_bytes_no_follow(path, rel)
    except OSError as err:
        raise RepoError(f"{rel}: cannot read the doc file ({err.strerror}); check its permissions.") from err
    return None if data is None else _decode(data, rel)


def read_staged_text(repo_root: Path, rel: str) -> str | None:
    """A doc file's text as it is staged (what a commit would take), or None when it is not staged."""
    paths.relative(rel)  # the index holds no symlinked folders; its symlinks are refused below
    entry = staged_entry(repo_root, rel)
    if entry is None:
        return None
    mode, data = entry
    if mode == _SYMLINK_MODE:
        raise ConfigError(f"{rel}: staged as a symlink, and docbot never reads a doc through a symlink. "
                          f"Replace it with a regular file (`git rm --cached {rel}`), then stage the doc again.")
    return _decode(data, rel)


def _decode(data: bytes, rel: str) -> str:
    """The file's text; ConfigError (exit 2) for bytes that are not UTF-8.

    Decoding them as U+FFFD would let the next write replace a person's bytes for good, so the file is
    not read at all until a person decides what those bytes are.
    """
    try:
        return data.decode("utf-8").replace("\r\n", "\n")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{rel}: byte 0x{data[err.start]:02x} at offset {err.start} is not UTF-8, and docbot never "
                          "rewrites bytes a person wrote. Convert the file to UTF-8 (for example `iconv -f latin1 "
                          f"-t utf-8 {rel}`) or remove those bytes, then run docbot again.") from None


def write_text(repo_root: Path, rel: str, text: str | None, *, read_as: str | None) -> bool:
    """Write (or, for None, remove) a doc file unless it changed since it was read as ``read_as``.

    The file's digest is compared just before the atomic rename; False means it was edited during
    the run and nothing was written.
    """
    path = paths.inside_repo(repo_root, rel)
    expected = docs_api.text_digest(read_as)

    def unchanged() -> bool:
        return docs_api.text_digest(read_text(repo_root, rel)) == expected

    try:
        return paths.write_atomic(path, text, unchanged=unchanged)
    except OSError as err:
        raise RepoError(f"{rel}: cannot write the doc file ({err.strerror}); check the "
                        "permissions of the docs folder and run again.") from err


def notices(rel: str, existing: DocFile | None, text: str | None) -> list[DocNotice]:
    """What a person should hear about writing ``text`` over ``existing``: duplicates, removals."""
    if existing is None:
        return []
    found = duplicate_notices(rel, existing)
    left = docs_api.parse_doc_file(text).sections if text is not None else {}
    gone = tuple(q for q in existing.sections if q not in left)
    if text is None:
        found.append(DocNotice(NoticeKind.FILE_REMOVED, rel, gone))
    elif gone and not left:
        found.append(DocNotice(NoticeKind.SECTIONS_REMOVED, rel, gone))
    return found


def duplicate_notices(rel: str, doc: DocFile | None) -> list[DocNotice]:
    """A notice naming every function with more than one section in the file (none when there is none)."""
    if doc is None or not doc.duplicates:
        return []
    return [DocNotice(NoticeKind.DUPLICATE_SECTION, rel, tuple(dict.fromkeys(doc.duplicates)))]


def documented_pages(repo_root: Path, docs_dir: str, exclude: set[str]) -> list[str]:
    """Pages not in ``exclude`` with a docbot-written section in the docs folder (files a person
    wrote, without section markers, are ignored). Excluded files are not even read, nor symlinks."""
    return list(_documented(repo_root, docs_dir, exclude))


def documented_modules(repo_root: Path, docs_dir: str, exclude: set[str]) -> dict[str, str]:
    """Module -> the page its sections are on (the first, in name order), for every module not in
    ``exclude`` with a docbot-written section in the docs folder; a page names several modules when it
    is a public page holding its private modules' functions."""
    found: dict[str, str] = {}
    for page, doc in _documented(repo_root, docs_dir, {"index"}).items():
        for key in doc.sections:
            module = docs_api.split_key(page, key)[0]
            if module not in exclude:
                found.setdefault(module, page)
    return found


def _documented(repo_root: Path, docs_dir: str, exclude: set[str]) -> dict[str, DocFile]:
    folder = docs_folder(repo_root, docs_dir)
    if not folder.is_dir():
        return {}
    found: dict[str, DocFile] = {}
    for file in sorted(folder.glob("*.md")):
        page = file.name[: -len(".md")]
        if page in exclude or file.is_symlink():
            continue
        text = read_text(repo_root, docs_api.doc_path(docs_dir, page))
        if text is not None and "<!-- docbot:section " in text and (doc := docs_api.parse_doc_file(text)).sections:
            found[page] = doc
    return found
