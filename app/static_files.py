"""The files under static/ and the pages, served compressed and cached.

At start-up the static tree is read into memory and hashed: its version is the first 12 hex
digits of a SHA-256 over every file's path and contents. The pages reference the files under
`/static/<version>/...` (`static_url` in the Jinja templates), so a changed file changes every
URL, and those URLs are cached for a year (`immutable`). The scripts import each other by
relative URLs, so a module loaded under the versioned prefix pulls its imports from under the
same prefix. `/static/<path>` without a version keeps working for old links and for tests, with
a short max-age and an ETag to revalidate against.

Text files (scripts, stylesheets, SVG, HTML) go out compressed when the browser accepts it:
brotli (quality 11) if it does, else gzip (level 9), each made once per file on its first
request (in a thread: brotli at quality 11 takes tens of milliseconds on a large file) and
kept. Every compressible answer says `Vary: Accept-Encoding`. The pages (HTML, rendered once at
start-up) get the same treatment with an ETag and `Cache-Control: no-cache`, so a returning
browser asks again and gets a 304 without a body. API answers and the WebSocket do not pass
through here.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import mimetypes
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

import brotli
from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

IMMUTABLE = "public, max-age=31536000, immutable"
# /static/<path> without a version: old links, and a page kept from before the last deploy.
REVALIDATE = "public, max-age=60, must-revalidate"
PAGE_CACHE = "no-cache"  # stored, but asked for again (an If-None-Match) on every visit
VERSION_LENGTH = 12
LOOKS_LIKE_VERSION = re.compile(rf"[0-9a-f]{{{VERSION_LENGTH}}}")

MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".md": "text/markdown; charset=utf-8",
    ".map": "application/json",
}
COMPRESSIBLE = frozenset(MEDIA_TYPES)
SMALLEST_TO_COMPRESS = 256  # below this the encoding header costs about what it saves
BROTLI_BEST_UP_TO = 262_144
# Compressing a file above this size is done in a thread rather than on the event loop.
COMPRESS_INLINE_UP_TO = 16_384

# Compressed bodies by (ETag of the identity body, encoding): a file or page compressed once
# per process, whichever app (tests make many) serves it. Bounded by what there is to serve:
# the files under static/ and the pages, each rendered once.
_compressed: dict[tuple[str, str], bytes] = {}


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    media_type: str
    etag: str  # of the identity body, without quotes
    compressible: bool


@dataclass(frozen=True)
class StaticTree:
    """Every file under static/ in memory, and the version of the whole tree."""

    version: str
    files: Mapping[str, StaticFile]  # by path relative to static/, with "/" separators

    def url(self, path: str) -> str:
        """The versioned (immutable) URL of a file; a missing file stops the start-up."""
        if path not in self.files:
            raise KeyError(f"static/{path} does not exist")
        return f"/static/{self.version}/{path}"

    def module_imports(self, path: str) -> list[str]:
        """The files `path` (a JavaScript module) imports statically, directly or not, in
        the order a browser would meet them (dynamic `import()` is left out)."""
        seen: dict[str, None] = {}

        def visit(module: str) -> None:
            for target in _static_imports(self.files[module].body.decode("utf-8")):
                if target.startswith("/static/"):
                    resolved = target.removeprefix("/static/")
                else:
                    resolved = _join(module, target)
                if resolved in self.files and resolved not in seen:
                    seen[resolved] = None
                    visit(resolved)

        visit(path)
        return list(seen)

    def module_preloads(self, *modules: str) -> Markup:
        """<link rel="modulepreload"> for these modules and every module they import, so the
        browser fetches them all at once rather than one level of imports per round trip."""
        found: dict[str, None] = {}
        for module in modules:
            for each in (module, *self.module_imports(module)):
                found.setdefault(each, None)
        links = (
            Markup('<link rel="modulepreload" href="{}">').format(self.url(module))
            for module in found
        )
        return Markup("\n  ").join(links)


_IMPORT = re.compile(
    r"""^\s*(?:import|export)\s(?:[^"';]*?\sfrom\s*)?["']([^"']+)["']""", re.MULTILINE
)


def _static_imports(source: str) -> list[str]:
    return _IMPORT.findall(source)


def _join(module: str, target: str) -> str:
    """`target`, a relative import in static/`module`, as a path relative to static/."""
    parts: list[str] = list(PurePosixPath(module).parent.parts)
    for part in PurePosixPath(target).parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def media_type(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    return MEDIA_TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


@lru_cache(maxsize=4)
def load_static_tree(directory: Path) -> StaticTree:
    """The tree under `directory`, read once per process (the files do not change while the
    server runs; a restart reads them again and a changed file gets a new version)."""
    files: dict[str, StaticFile] = {}
    whole = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        relative = path.relative_to(directory).as_posix()
        body = path.read_bytes()
        digest = hashlib.sha256(body).hexdigest()
        whole.update(f"{relative}\0{digest}\0".encode())
        files[relative] = StaticFile(
            body=body,
            media_type=media_type(relative),
            etag=digest[:32],
            compressible=path.suffix.lower() in COMPRESSIBLE and len(body) >= SMALLEST_TO_COMPRESS,
        )
    return StaticTree(version=whole.hexdigest()[:VERSION_LENGTH], files=files)


# --------------------------------------------------------------------------- answers


def accepted_encoding(accept_encoding: str) -> str | None:
    """The encoding to answer an Accept-Encoding header with, by its q-values: "br", "gzip",
    or None for the identity."""
    weights: dict[str, float] = {}
    for item in accept_encoding.lower().split(","):
        name, _, params = item.strip().partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        weights[name.strip()] = quality
    for encoding in ("br", "gzip"):
        if weights.get(encoding, weights.get("*", 0.0)) > 0:
            return encoding
    return None


def compress(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        # Quality 11 takes seconds on the 1.4 MB Swagger UI bundle; 6 takes milliseconds.
        quality = 11 if len(body) <= BROTLI_BEST_UP_TO else 6
        return bytes(brotli.compress(body, quality=quality))
    return gzip.compress(body, compresslevel=9, mtime=0)


async def compressed(body: bytes, etag: str, encoding: str) -> bytes:
    key = (etag, encoding)
    cached = _compressed.get(key)
    if cached is None:
        if len(body) <= COMPRESS_INLINE_UP_TO:
            cached = compress(body, encoding)
        else:
            cached = await asyncio.to_thread(compress, body, encoding)
        _compressed[key] = cached
    return cached


def _matches(if_none_match: str, etags: Iterable[str]) -> bool:
    """If-None-Match against our tags (weak comparison, as RFC 9110 says for this header)."""
    given = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in given or any(tag in given for tag in etags)


async def answer(
    request: Request,
    body: bytes,
    *,
    media_type: str,
    etag: str,
    cache_control: str,
    compressible: bool,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """The response to a GET or HEAD of `body`: compressed as the client accepts, with its
    ETag, and a 304 without a body when the client already holds it."""
    encoding = (
        accepted_encoding(request.headers.get("accept-encoding", "")) if compressible else None
    )
    tag = f'"{etag}-{encoding}"' if encoding else f'"{etag}"'
    head = {**(headers or {}), "cache-control": cache_control, "etag": tag}
    if compressible:
        head["vary"] = "Accept-Encoding"
    if status == 200 and _matches(request.headers.get("if-none-match", ""), (tag,)):
        return Response(status_code=304, headers=head)
    if encoding:
        body = await compressed(body, etag, encoding)
        head["content-encoding"] = encoding
    return Response(body, status_code=status, media_type=media_type, headers=head)


_page_etags: dict[str, str] = {}


async def page_response(
    request: Request,
    html: str,
    *,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """A rendered page: compressed, with an ETag, revalidated on every visit."""
    etag = _page_etags.get(html)
    if etag is None:
        etag = hashlib.sha256(html.encode()).hexdigest()[:32]
        if len(_page_etags) < 1_000:  # the pages are a few dozen strings rendered once
            _page_etags[html] = etag
    return await answer(
        request,
        html.encode(),
        media_type=MEDIA_TYPES[".html"],
        etag=etag,
        cache_control=PAGE_CACHE,
        compressible=True,
        status=status,
        headers=headers,
    )


def static_endpoint(tree: StaticTree) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of GET /static/{path:path}."""

    async def serve_static(request: Request) -> Response:
        path = request.path_params["path"]
        first, _, rest = path.partition("/")
        if first == tree.version and rest in tree.files:
            found, cache_control = tree.files[rest], IMMUTABLE
        elif path in tree.files:
            found, cache_control = tree.files[path], REVALIDATE
        elif LOOKS_LIKE_VERSION.fullmatch(first) and rest in tree.files:
            # A page from before the last restart: today's file, but not for a year.
            found, cache_control = tree.files[rest], REVALIDATE
        else:
            raise HTTPException(status_code=404)
        return await answer(
            request,
            found.body,
            media_type=found.media_type,
            etag=found.etag,
            cache_control=cache_control,
            compressible=found.compressible,
        )

    return serve_static
