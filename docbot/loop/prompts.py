"""Every prompt docbot sends, as data with named placeholders.

Kept together so a prompt change is one diff in one file, and replayed recordings show its effect.
``render`` fills a template; a missing placeholder is a programming error and raises KeyError.
``PROMPT_VERSION`` changes with any prompt: whatever caches a model's answer keys on it.

The writers fill the doc model (docbot.docmodel) and never write Markdown: the heading, signature,
types and defaults come from the code. The critic reads the page docbot rendered from the model.
"""

from __future__ import annotations

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from docbot.mdtext import plain
from docbot.verify.checks.text_rules import prompt_sentences

PROMPT_VERSION = "2026-12-02.paragraphs-1"

WRITER_SYSTEM = """\
You are a senior technical writer documenting a Python API for developers.
You answer with one JSON object that fills the documentation schema, and nothing else.
Every statement must be true of the source code you are given."""

DRAFT = """\
Document the Python function `{qualname}` from module `{module}`.

Source:
```python
{source}
```

Facts extracted from the code (exact; use the names, exception types and messages verbatim):
{facts}
{current}
Fill every field: summary (one sentence), description (a list of paragraphs), parameters (one entry
per parameter, with its name as in the signature), returns, raises (type, exact message, condition),
examples (code that calls the function, and exactly what it prints), notes. Answer with the JSON
object only."""

CURRENT = """
The documentation as it stands now (a person may have edited it). Start from it: keep every
statement that is still true of the code above, and change only what the code change made false
or left out:
{current}
"""

REVISE = """\
Your previous documentation of `{qualname}` scored {score}/100; the bar is {bar}/100.

The single most important fix:
{fix}

Statements that contradict the code (each one must be fixed):
{fatal}

What the code has and the documentation leaves out:
{gaps}

Source:
```python
{source}
```

Facts extracted from the code (exact):
{facts}

Your previous documentation, as JSON:
{draft}

Answer with the corrected JSON object only, every field filled."""

DOC_REPAIR = """\
Your previous answer could not be used: {error}
It began: {excerpt}
Answer again with only a JSON object with the keys summary, description, parameters, returns, raises,
examples, notes."""

CRITIC_SYSTEM = """\
You are a strict reviewer of API documentation. You grade the documentation, never the design of the
code, and you never ask for the code to change. Follow the procedure exactly:
- Start technical_accuracy at 100. Deduct only for a statement you can quote from the documentation
  that contradicts the source.
- Start completeness at 100. Deduct for each missing part: summary, a parameter, the return value, a
  raised exception, an example.
- Check that every `raise` in the source is documented with its exact type and exact message.
- Recompute every number shown in the examples from the source; a wrong output is a fatal issue.
- fatal_issues lists only statements that are false about the code; each one copies the false words
  from the documentation into "quote" and says in "problem" what the code does instead.
- critical_fix is the one correction that matters most.
Answer with a JSON object with the keys: technical_accuracy, completeness, issues, fatal_issues,
critical_fix, verdict."""

CRITIQUE = """\
Source of `{qualname}`:
```python
{source}
```

Facts extracted from the code (exact):
{facts}

Problems the code checks already proved (count them as fatal issues):
{truth}

Documentation to grade:
{draft}"""

CRITIQUE_REPAIR = """\
Your previous answer could not be used: {error}
It began: {excerpt}
Answer again with only a JSON object with the keys technical_accuracy (0-100), completeness (0-100),
issues (list of strings), fatal_issues (list of {{"quote", "problem"}} objects), critical_fix (string),
verdict ("pass"/"fail")."""

ADJUDICATOR_SYSTEM = """\
You are the final editor of API documentation. You receive the source code and the best draft so far,
as JSON. Remove every statement that conflicts with the source or with another statement, keep
everything that is correct, and answer with the corrected JSON object only."""

ADJUDICATE = """\
Source of `{qualname}`:
```python
{source}
```

The last remaining concern of the reviewer:
{concern}

The draft, as JSON:
{draft}

Answer with the final JSON object only, every field filled."""


CURRENT_DOCSTRING = """
The function's docstring as it stands, read into the schema (a person may have written it). Keep every
statement in it that is still true of the code above:
{docstring}
"""

# Directives are no part of the schema: docbot appends them to the new docstring as written
# (docbot.docstrings.existing), so the writer is told they stay and must not be restated.
KEPT_DIRECTIVES = """docbot keeps these directives of the docstring as they are; do not repeat them in any field:
{directives}
"""


# Every text docbot sends a model: a doc field that repeats one of their sentences is the prompt echoed,
# not documentation (docbot.verify.checks.text_rules), so the exact checks reject it.
TEMPLATES = (WRITER_SYSTEM, DRAFT, CURRENT, CURRENT_DOCSTRING, KEPT_DIRECTIVES, REVISE, DOC_REPAIR,
             CRITIC_SYSTEM, CRITIQUE, CRITIQUE_REPAIR, ADJUDICATOR_SYSTEM, ADJUDICATE)
ECHO_SENTENCES = prompt_sentences(TEMPLATES)


def render(template: str, **values: object) -> str:
    return template.format(**values)


def bullet_list(items: list[str], empty: str = "(none)") -> str:
    return "\n".join(f"- {item}" for item in items) if items else empty


def current_block(current: str, source: str = "") -> str:
    """The existing section for the draft prompt as readable text (no tags, character references or
    escapes: a small model reads ``periods_per_year``, not ``periods&#95;per&#95;year``), then the
    function's docstring in ``source`` as a doc model; nothing for what the function lacks."""
    text = "\n".join(line.rstrip() for line in plain(current).strip().splitlines())
    return (render(CURRENT, current=text) if text.strip() else "") + docstring_block(source)


def docstring_block(source: str) -> str:
    """The docstring of the function in ``source``, parsed into the doc model, for the writer to start from."""
    from docbot.docmodel import writer_json
    from docbot.docstrings.existing import directives, existing_docstring, seed_model  # docstring_parser: only here

    doc = existing_docstring(source) if source else None
    seed, kept = seed_model(doc), directives(doc)
    block = render(CURRENT_DOCSTRING, docstring=writer_json(seed.model_dump(exclude_defaults=True))) if seed else ""
    return block + (render(KEPT_DIRECTIVES, directives="\n".join(kept)) if kept else "")


def writer_messages(template: str, **values: object) -> list[BaseMessage]:
    return [SystemMessage(WRITER_SYSTEM), HumanMessage(render(template, **values))]


def critic_messages(**values: object) -> list[BaseMessage]:
    return [SystemMessage(CRITIC_SYSTEM), HumanMessage(render(CRITIQUE, **values))]


def adjudicator_messages(**values: object) -> list[BaseMessage]:
    return [SystemMessage(ADJUDICATOR_SYSTEM), HumanMessage(render(ADJUDICATE, **values))]


def doc_reask(error: str, excerpt: str) -> str:
    return render(DOC_REPAIR, error=error, excerpt=excerpt or "(nothing)")


def critique_reask(error: str, excerpt: str) -> str:
    return render(CRITIQUE_REPAIR, error=error, excerpt=excerpt or "(nothing)")
