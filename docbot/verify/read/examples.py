"""Find a doc's examples and what they claim: doctest ``>>>`` blocks and Python blocks with stated outputs.

A stated output is a doctest's expected text, a marker comment (``# Output: 3``, ``# -> 3``,
``# returns 3``, ``# raises ValueError: ...``), or an output block right after the code block. Blocks
with no stated output still run (later examples may need their names), but their failures are only
worth a look, not fatal: nothing was promised.

Prose that says a block fails ("Handle invalid TOML", "raises") makes its failure a note, except for a
block with a ``try`` statement: that code handles the failure itself, so it is presented as working
and an exception escaping it is a contradiction (tests/verify/test_examples.py, "try").

Marker comments, and a bare expression's trailing comment, are read in docbot.verify.read.comment_claims.

A doctest traceback's stated exception is its ``Type: message`` line (and the message's continuation
lines); ``#`` lines after it are the doc's commentary on the next example, which no console prints after
an exception, so they are not part of the stated message (tests/verify/test_examples.py, "commentary").
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import replace
from typing import TYPE_CHECKING

from docbot.verify.read.comment_claims import (EXCEPTION, EXCEPTION_ANY, PRINTS, claim, comment_texts, is_print,
                                               marked_statements)
from docbot.sandbox.compare import literal
from docbot.sandbox.judge import COMPOUND  # what the child echoes, by the child's own rule
from docbot.sandbox.step import Step
from docbot.verify.read.markdown import CodeBlock, code_blocks

if TYPE_CHECKING:  # doctest (with the pdb and unittest it imports) is loaded only for a doc with `>>>` examples
    import doctest

_PYTHON_LANGS = {"python", "py", "python3", "pycon", "doctest", "ipython", ""}
_OUTPUT_LANGS = {"text", "txt", "output", "plaintext", "plain", "console", "stdout", "out", "none"}
# "See also these methods:" introduces a list of names, not what the block above printed.
_OUTPUT_INTRO = re.compile(r"\b(outputs?|prints?|printed|results?|returns?|gives|displays?|shows?|yields?|produces?|"
                           r"emits?)\b", re.IGNORECASE)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_PROMPT = re.compile(r"^\s*[$%] ", re.MULTILINE)  # a shell prompt
_COMMENTED_PROMPT = re.compile(r"^\s*#\s*>>>")
# a pymdownx.snippets include line: `--8<-- "path"` (or the block form's bare `--8<--`), which parses as Python
_SNIPPET = re.compile(r"""^\s*;?-{2,}8<-{2,}(?:\s*(?:"[^"]*"|'[^']*'))?\s*$""")
# `$ python example.py` and nothing more: arguments would make it another run than the block's
_RUNS_PYTHON = re.compile(r"^\s*[$%] (?:python[\d.]*|py|uv run(?: python[\d.]*)?) [\w./-]+\.py\s*$")
# Prose just before a block that says it shows a failure: the block is not presented as working.
_SHOWS_FAILURE = re.compile(r"\b(rais\w*|throws?|fails?|error|exception|traceback|invalid|crash\w*)\b", re.I)
_OR_LINE = re.compile(r"^[ \t]*#[ \t]*or\b[\s:,.]*$", re.I | re.M)  # a comment line between two alternatives
# "If you get the following ImportError:" (celery 5.7.0's calling.rst, above `>>> import bz2` and its traceback):
# the failure shown happens on some readers' machines, not on every one
_CONDITIONAL = re.compile(r"\b(?:if|when|should) you (?:get|see|receive|encounter|run into)\b|"
                          r"\byou (?:may|might|could) (?:get|see|receive|encounter)\b", re.I)
_WORDS = {"true": "True", "false": "False", "none": "None", "nothing": "None", "null": "None"}




def extract_steps(section: str) -> list[Step]:
    """Every example step of a doc (or one section of it), in document order."""
    blocks = code_blocks(section) + _loose_doctests(section)
    blocks.sort(key=lambda b: b.start)
    lines = section.splitlines()
    steps: list[Step] = []
    used_as_output: set[int] = set()
    for index, block in enumerate(blocks):
        if block.start in used_as_output:
            continue
        found: list[Step] = []
        if ">>>" in block.text:
            # sphinx.ext.doctest runs a `.. doctest::` block with IGNORE_EXCEPTION_DETAIL among its default flags
            found = _doctest_steps(block.text, ignore_detail=block.lang == "doctest")
        elif block.lang in _PYTHON_LANGS:
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            output = following if following and _is_output_block(block, following, lines) else None
            if output is not None:
                used_as_output.add(output.start)
            found = _python_steps(block.text, _output_text(output) if output else None)
        before = blocks[index - 1].end + 1 if index else 0
        near = " ".join(lines[max(before, block.start - 3) : block.start])
        shows_failure, conditional = bool(_SHOWS_FAILURE.search(near)), bool(_CONDITIONAL.search(near))
        in_init = _for_package_init(blocks[index - 1] if index else None, block, lines)
        steps += [replace(step, line=block.start, fatal=step.fatal and not in_init and not (
            shows_failure and step.expect == "none" and not _handles_failure(step.code)) and not (
            conditional and _states_failure(step))) for step in found]
    return steps


# "Edit {your_package}/__init__.py", "at the top of your package's __init__ submodule": code for a file of the
# reader's package, which fails run as a console session (beartype's beartype_this_package(): 10 false)
_PACKAGE_INIT = re.compile(r"__init__(?:\.py\b|[\"'`]*\s+(?:sub)?module)", re.I)


def _for_package_init(previous: CodeBlock | None, block: CodeBlock, lines: list[str]) -> bool:
    """Whether the text just above ``block``, the end of a block right above it, or its own opening comments say
    it goes into a package's ``__init__``."""
    start = previous.end + 1 if previous is not None else 0
    near = lines[max(start, block.start - 3) : block.start]
    if previous is not None and block.start - previous.end <= 3:
        near += previous.text.splitlines()[-2:]
    opening = [line for line in block.text.splitlines()[:3] if line.lstrip().startswith("#")]
    return bool(_PACKAGE_INIT.search(" ".join(near + opening)))


def _states_failure(step: Step) -> bool:
    return step.expect == "raises" or step.want.lstrip().startswith("Traceback (most recent call last)")


def _handles_failure(code: str) -> bool:
    """Whether the code has a ``try`` statement: it deals with the failure the text speaks of."""
    try:
        return any(isinstance(node, ast.Try) for node in ast.walk(ast.parse(textwrap.dedent(code))))
    except SyntaxError:
        return False


def _loose_doctests(section: str) -> list[CodeBlock]:
    """``>>>`` paragraphs outside fences (indented code in plain Markdown)."""
    fenced = {i for b in code_blocks(section) for i in range(b.start, b.end + 1)}
    found: list[CodeBlock] = []
    lines = section.splitlines()
    index = 0
    while index < len(lines):
        if index in fenced or not lines[index].lstrip().startswith(">>>"):
            index += 1
            continue
        end = index
        while end + 1 < len(lines) and lines[end + 1].strip() and end + 1 not in fenced:
            end += 1
        found.append(CodeBlock("pycon", "\n".join(lines[index : end + 1]), index, end))
        index = end + 1
    return found


def _is_output_block(code: CodeBlock, candidate: CodeBlock, lines: list[str]) -> bool:
    """Whether ``candidate`` shows what the code block before it prints: right after it, with at most a short
    sentence that introduces output between them, never across a heading (the next section's block is not this
    example's output), and not a shell session that runs something other than the example."""
    gap = lines[code.end + 1 : candidate.start]
    between = " ".join(gap).strip()
    if len(between) > 80 or ">>>" in candidate.text or any(_HEADING.match(line) for line in gap):
        return False
    if _PROMPT.match(candidate.text.lstrip("\n")):  # `$ python example.py` says itself that it runs the example
        return _output_text(candidate) is not None
    if between and not _OUTPUT_INTRO.search(between):
        return False
    if candidate.lang in _OUTPUT_LANGS:
        return True
    try:  # an unlabelled block that is code (it calls or assigns) is the next example, not output
        tree = ast.parse(candidate.text)
    except SyntaxError:
        return candidate.lang == "" or bool(between)
    if candidate.lang != "":  # a block labelled Python is output only where a sentence ending in ":" says so
        return between.endswith(":") and all(isinstance(n, ast.Expr) and not is_print(n) for n in tree.body)
    return not any(isinstance(n, (ast.Call, ast.Assign, ast.Import, ast.ImportFrom)) for n in ast.walk(tree))


def _output_text(block: CodeBlock) -> str | None:
    """The output a block shows: its text, without the one shell line that runs the example (``$ python
    example.py``); None for a shell session that runs anything else (``$ pip install ...``)."""
    text = block.text.lstrip("\n")
    if not _PROMPT.match(text):
        return block.text
    first, _, rest = text.partition("\n")
    if not _RUNS_PYTHON.match(first) or _PROMPT.search(rest):
        return None
    return rest


def _doctest_examples(text: str) -> list[doctest.Example]:
    """doctest's own reading; where one example breaks its rules, the others are still read."""
    import doctest  # here, not at the top: pdb and unittest come with it, and only `>>>` examples need it

    text = re.sub(r"^(\s*(?:>>>|\.\.\.))(?=[^\s.])", r"\1 ", _dedent_prompts(text), flags=re.MULTILINE)
    try:
        return doctest.DocTestParser().get_examples(text)
    except ValueError:
        pass
    examples: list[doctest.Example] = []
    for chunk in re.split(r"\n(?=>>>)", text):  # one example (with its output) at a time
        try:
            examples += doctest.DocTestParser().get_examples(chunk)
        except ValueError:
            continue  # this one example is unreadable (e.g. a bad continuation indent)
    return examples


def _doctest_steps(text: str, ignore_detail: bool = False) -> list[Step]:
    """A ``>>>`` session's steps; ``ignore_detail``: its toolchain runs it with IGNORE_EXCEPTION_DETAIL, which an
    example's own ``# doctest: +IGNORE_EXCEPTION_DETAIL`` / ``-...`` overrides, as doctest does."""
    import doctest  # loaded by _doctest_examples just above; only the option flags are read here

    examples = _continued(_doctest_examples(text))
    steps = []
    for example in examples:
        if example.options.get(doctest.SKIP):
            continue  # "# doctest: +SKIP": the doc itself says this one is not to be run
        shown = example.source.strip().splitlines()[0] if example.source.strip() else ""
        if example.exc_msg is not None:
            stated = _without_commentary(example.exc_msg)
            exc_type, exc_message = _exception_claim(stated)
            # IGNORE_EXCEPTION_DETAIL: the type is what the doc's own test holds it to, not the message
            ignored = example.options.get(doctest.IGNORE_EXCEPTION_DETAIL, ignore_detail)
            steps.append(Step(example.source, "raises", stated.strip(), exc_type, None if ignored else exc_message,
                              shown=shown))
        else:
            loose = bool(example.options.get(doctest.NORMALIZE_WHITESPACE))
            steps.append(Step(example.source, "output", _without_separators(example.want), shown=shown,
                              loose_space=loose))
    return steps


def _continued(examples: list[doctest.Example]) -> list[doctest.Example]:
    """A ``>>>`` line of decorators alone (``>>> @app.task(name='sum')``) and the example after it as one: a console
    waits for the definition at its ``...`` prompt, so typing the doc's next line (``>>> def add(x, y):``, a
    second prompt the doc shows where the console shows ``...``) continues it (celery 5.7.0's tasks guide)."""
    import doctest

    joined: list[doctest.Example] = []
    pending: doctest.Example | None = None
    for example in examples:
        if pending is not None:
            example = doctest.Example(pending.source + example.source, example.want, example.exc_msg,
                                      pending.lineno, pending.indent, example.options)
            pending = None
        lines = [line for line in example.source.splitlines() if line.strip()]
        if lines and all(line.lstrip().startswith("@") for line in lines) and not example.want:
            pending = example
        else:
            joined.append(example)
    return joined + ([pending] if pending is not None else [])


def _dedent_prompts(text: str) -> str:
    indents = [len(line) - len(line.lstrip()) for line in text.splitlines() if line.lstrip().startswith(">>>")]
    cut = min(indents, default=0)
    # A line indented less than the prompts loses what it has; one indented more keeps the rest (a
    # traceback's "  File ..." lines must stay indented, or doctest reads them as the message).
    return "\n".join(line[cut:] if not line[:cut].strip() else line.lstrip() for line in text.splitlines())


def _without_commentary(exc_msg: str) -> str:
    """The stated exception without the ``#`` comment lines that follow it (the module docstring)."""
    lines = exc_msg.splitlines()
    while len(lines) > 1 and lines[-1].lstrip().startswith("#"):
        lines.pop()
    return "\n".join(lines) + "\n"


def _without_separators(want: str) -> str:
    """A doctest's expected output without the bare ``#`` lines that end it: a doc sets sessions apart with
    them (``<i>HTML</i>``, then ``#``, then the next ``>>>``), and a console prints no such line after a value.
    A commented-out prompt (``# >>> from typing_extensions import Annotated``, beartype's README) and what
    follows it are the doc's remarks, not output."""
    lines = want.splitlines()
    lines = lines[:next((i for i, line in enumerate(lines) if _COMMENTED_PROMPT.match(line)), len(lines))]
    while lines and lines[-1].strip() == "#":
        lines.pop()
    return "".join(line + "\n" for line in lines)


def _exception_claim(text: str) -> tuple[str, str | None]:
    """``ValueError: msg`` -> ("ValueError", "msg"); ``ValueError`` -> ("ValueError", None)."""
    match = EXCEPTION.match(text.strip()) or EXCEPTION_ANY.match(text.strip())
    if not match:
        head = text.strip().split(":", 1)
        return head[0].strip(), (head[1].strip() if len(head) > 1 else None)
    message = match.group(2) if match.group(2) is not None else match.group(4)
    return match.group(1), message.strip() or None if message is not None else None  # "ValueError:" states none


def _python_steps(text: str, output: str | None) -> list[Step]:
    if all(_SNIPPET.match(line) for line in text.splitlines() if line.strip()):
        return []  # pymdownx.snippets' `--8<-- "examples/app.py"`: the page's markup includes a file (flask-cors)
    # flask 3.1.3's cli.rst, "The following are equivalent:": `bp = ...`, `# or`, `app.register_blueprint(...)`:
    # a reader runs one of them, not both
    alternative = _OR_LINE.search(text)
    text = text[: alternative.start()] if alternative and text[: alternative.start()].strip() else text
    try:
        tree = ast.parse(text)
    except SyntaxError:
        # A signature sketch or pseudo-code is not an example; a block that states results is, and
        # running it reports the syntax error as the example's failure.
        stated = any(claim([c]) for c in comment_texts(text)) or output is not None
        return [Step(text, "none", shown=text.strip().splitlines()[0])] if stated else []
    if not tree.body or all(_is_stub(node) for node in tree.body):
        return []  # `def f(a, b=1) -> int: ...` documents a signature; running it would shadow f
    markers = marked_statements(text, tree)
    if not markers:
        if output is not None:
            last = tree.body[-1]
            echo = isinstance(last, ast.Expr) and not is_print(last)
            return [Step(text, "stdout", output, echo_last=echo, shown=_shown(text, last))]
        return [Step(text, "none", shown=_shown(text, tree.body[0]))]
    steps = [_marked_step(text, node, markers.get(index)) for index, node in enumerate(tree.body)]
    final = steps[-1]
    if output is not None and final.expect == "raises" and final.exc_message is None and \
            output.strip().startswith(f"{final.exc_type}:"):
        # `foo = Foo(bar="3")  # raises a TraitError`, then the error's text in the block after (traitlets'
        # docs): the block states its message
        steps[-1] = _marked_step(text, tree.body[-1], "!raises " + " ".join(output.split()))
    return steps


def _is_stub(node: ast.stmt) -> bool:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = [n for n in node.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    return all(isinstance(n, ast.Pass) for n in body)


def _segment(text: str, node: ast.stmt) -> str:
    """A statement's source, with its decorators (``ast.get_source_segment`` starts at ``class``)."""
    decorators = getattr(node, "decorator_list", [])
    if not decorators:
        return ast.get_source_segment(text, node) or ""
    lines = text.splitlines()[min(d.lineno for d in decorators) - 1 : node.end_lineno]
    return textwrap.dedent("\n".join(lines))


def _shown(text: str, node: ast.stmt) -> str:
    segment = _segment(text, node)
    return segment.strip().splitlines()[0] if segment.strip() else ""


def _marked_step(text: str, node: ast.stmt, claim: str | None) -> Step:
    code, shown = _segment(text, node), _shown(text, node)
    if claim is None:
        return Step(code, "none", shown=shown)
    printed, claim = claim.startswith(PRINTS), claim.removeprefix(PRINTS)
    if claim.startswith("!raises ") or EXCEPTION.match(claim):
        exc_type, message = _exception_claim(claim.removeprefix("!raises "))
        return Step(code, "raises", claim.removeprefix("!raises "), exc_type, _unquote(message), shown=shown)
    want = _drop_remark(_worked_result(claim))
    want = _WORDS.get(want.strip().rstrip(".").lower(), want)  # "# returns true", "# -> none"
    if is_print(node) or not isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)):
        # A compound statement that prints nothing states what the console echoes of it (`try: ... except E as
        # err: err.messages` then `# => {...}`): its expressions are echoed (docbot.sandbox.child).
        echo = isinstance(node, COMPOUND) and not any(is_print(n) for n in ast.walk(node) if isinstance(n, ast.stmt))
        return Step(code, "stdout", want, echo_last=echo, shown=shown)
    if printed and isinstance(node, ast.Expr):
        # "show()  # prints lib": what the console shows, the call's own printing then its echoed value (a
        # value alone is still compared as a value), so a function that prints is not read as returning it.
        return Step(code, "stdout", want, echo_last=True, shown=shown)
    target = ""
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if len(targets) != 1 or not isinstance(targets[0], ast.Name):
            return Step(code, "none", shown=shown)
        target = targets[0].id
    return Step(code, "value", want, target=target, shown=shown)


def _worked_result(want: str) -> str:
    """``1 - 6/10 = 0.4`` -> ``0.4``: a worked sum states its result after the ``=``; the sum is not the value."""
    left, equals, result = want.rpartition("=")
    if not equals or left.endswith(("=", "<", ">", "!")) or not literal(result.strip())[1]:
        return want
    try:
        tree = ast.parse(left.strip(), mode="eval")
    except SyntaxError:
        return want
    sums = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.operator, ast.unaryop)
    if not isinstance(tree.body, (ast.BinOp, ast.UnaryOp)) or not all(isinstance(n, sums) for n in ast.walk(tree)):
        return want
    return result.strip()


def _drop_remark(want: str) -> str:
    """``110.25 (rounded)`` -> ``110.25``: a trailing remark after a literal is not part of the output."""
    match = re.match(r"^(.*?)\s+(?:\([^()]*\)|[—–-]{1,2}\s.*|#.*)$", want)
    if match and literal(match.group(1))[1] and not literal(want)[1]:
        return match.group(1)
    return want


def _unquote(message: str | None) -> str | None:
    if message and len(message) >= 2 and message[0] == message[-1] and message[0] in "\"'":
        return message[1:-1]
    return message
