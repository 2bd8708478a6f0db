# Text for a terminal that is not UTF-8: a stream that cannot encode a character writes its
# ASCII look-alike instead (`──` as `--`, `·` as `-`, `7♥` as `7H`, `é` as `e`), never a
# UnicodeEncodeError. The CLI fits stdout and stderr once, at the top (host/cli.py).
import codecs
import unicodedata

HANDLER = "tapis-ascii"
LOOKALIKES = {
    "─": "-", "═": "=", "│": "|", "·": "-", "•": "*", "★": "*", "–": "-", "—": "-",
    "→": "->", "←": "<-", "…": "...", "×": "x", "≥": ">=", "≤": "<=", "±": "+/-",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
    "“": '"', "”": '"', "‘": "'", "’": "'", "«": '"', "»": '"',
}


def ascii_text(text):
    """The ASCII look-alike of text: known symbols by LOOKALIKES, accented letters without
    their accents, anything else '?'."""
    out = []
    for ch in text:
        if ch < "\x80":
            out.append(ch)
            continue
        rep = LOOKALIKES.get(ch)
        if rep is None:
            rep = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode() or "?"
        out.append(rep)
    return "".join(out)


def _fallback(err):
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return ascii_text(err.object[err.start:err.end]), err.end


codecs.register_error(HANDLER, _fallback)


def fit(stream):
    """Make `stream` write look-alikes for what its encoding lacks (a no-op on UTF-8)."""
    encoding = getattr(stream, "encoding", None)
    try:
        if not encoding or codecs.lookup(encoding).name == "utf-8":
            return
        stream.reconfigure(errors=HANDLER)
    except (AttributeError, LookupError, ValueError):  # not a TextIOWrapper, or closed
        pass
