"""A game's protocol page (Markdown) as the LaTeX of a Kattis problem statement: headings,
paragraphs, lists, code and tables, every character of the text escaped."""

from __future__ import annotations

import re

#: LaTeX's special characters and how to write each as text
SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
           "#": r"\#", "%": r"\%", "_": r"\_", "^": r"\textasciicircum{}",
           "~": r"\textasciitilde{}", "<": r"\textless{}", ">": r"\textgreater{}",
           "|": r"\textbar{}"}
#: inline Markdown: code, bold, a link's text
INLINE = re.compile(r"`([^`]*)`|\*\*(.+?)\*\*|\[([^\]]*)\]\([^)]*\)")


def escape(text: str) -> str:
    """`text` as LaTeX typesets it literally (ASCII only: anything else becomes ``?``)."""
    return "".join(SPECIAL.get(c, c if c.isascii() else "?") for c in text)


def inline(text: str) -> str:
    """A line of Markdown text in LaTeX: `code`, **bold** and links' text kept."""
    out, at = [], 0
    for m in INLINE.finditer(text):
        out.append(escape(text[at:m.start()]))
        code, bold, link = m.groups()
        out.append(r"\texttt{" + escape(code) + "}" if code is not None
                   else r"\textbf{" + inline(bold) + "}" if bold is not None
                   else escape(link))
        at = m.end()
    return "".join(out) + escape(text[at:])


def latex(markdown: str, name: str) -> str:
    """The statement's LaTeX body (``\\problemname{name}`` first) of a Markdown page."""
    out = [r"\problemname{" + escape(name) + "}", ""]
    lines = markdown.splitlines()
    i = 0
    lists: list[str] = []
    while i < len(lines):
        line = lines[i]
        item = re.match(r"(\s*)(- |\d+\. )(.*)", line)
        kind = None if item is None else "itemize" if item.group(2) == "- " else "enumerate"
        while lists and (kind is None and line.strip() and not line.startswith("  ")
                         or kind is not None and kind != lists[-1]):
            out.append(rf"\end{{{lists.pop()}}}")
        if line.startswith("```") or line.startswith("    ") and not lists or \
                line.startswith("|"):
            fence = line.startswith("```")
            block = []
            i += 1 if fence else 0
            while i < len(lines) and (not lines[i].startswith("```") if fence else
                                      lines[i].startswith(("    ", "|"))):
                block.append(lines[i] if fence or lines[i].startswith("|") else lines[i][4:])
                i += 1
            out += [r"\begin{verbatim}", *(b.replace("\\end{verbatim}", "") for b in block),
                    r"\end{verbatim}"]
            i += 1 if fence else 0
            continue
        if line.startswith("#"):
            level, title = len(line) - len(line.lstrip("#")), line.lstrip("#").strip()
            if level > 1:
                out.append(r"\section*{" + inline(title) + "}")
        elif item is not None and kind is not None:
            if not lists:
                lists.append(kind)
                out.append(rf"\begin{{{kind}}}")
            out.append(r"\item " + inline(item.group(3)))
        else:
            out.append(inline(line.strip()))
        i += 1
    out += [rf"\end{{{k}}}" for k in reversed(lists)]
    return "\n".join(out) + "\n"
