"""The witness rule: a contradiction project mode finds by running a doc, or by not finding a name it uses, is
reported only with a witness, the smallest run a reader can repeat (docs/design.md#witness).

A session runs a doc statement by statement in one namespace docbot built; a contradiction it reports may be an
artifact of that, or of reading the package's source alone (API a module attaches at import time, a doc variable
named like the package). So before it is reported, each contradiction is run again as a reader would run it: the
doc's own lines up to the claim as one plain script (``python witness.py``), in its own sandboxed process, at the
project's root with the package importable (docbot.sandbox.script), the claim judged by the session's own rule on
the live objects the script made. A name is held to what ``getattr`` finds on the object the doc's code bound (the
doc's lines that bind it, and the import of the package's module). A witness that does not show the contradiction
again lowers it to a note, through ``docbot.verify.findings.lower``, with what the witness showed as the reason.
So does one that a reader who starts at the claim's own block would not see (run alone, with the doc's imports,
it shows what the doc states: the blocks before it are alternatives), and a stated output that only reorders the
printed one where other hash seeds print other orders (a set's order; a reader's interpreter has its own seed).
The scripts are written in ``docbot.verify.checks.witness_plans``.

Verdicts on the result channel itself (forged results, a rebound documented name) are the sandbox's, not a claim
of the doc: they need no witness, and keep theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from docbot.sandbox.runner import SandboxRun, describe_exit, run_script
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.checks.witness_plans import Plan, error_kind
from docbot.verify.findings import Check, DocFinding, Family, Severity, Witness, lower


_EXEMPT = (Check.EXAMPLE_UNTRUSTED, Check.EXAMPLE_REBINDS)
_STATIC = (Check.UNRESOLVED_REFERENCE, Check.INVENTED_PARAMETER, Check.WRONG_DEFAULT)  # read from the source alone
# The parameter and default a topic passage's signature finding names (docbot.verify.checks.parameters' words).
_READER_SEEDS = ("1", "2", "3")


def needs_witness(found: DocFinding) -> bool:
    """A contradiction from running the doc's examples, a name the package does not have, or a parameter or
    default the doc states that the signature does not have."""
    return found.severity is Severity.CONTRADICTION and found.check not in _EXEMPT and (
        found.finding.family is Family.EXAMPLES or found.check in _STATIC)


def replay(plan: Plan, context: ExampleContext) -> Witness | None:
    """Run the witness in a fresh sandboxed process and say whether it shows what the session saw; None where no
    sandbox can run it here (the finding then keeps the verdict it had, as with ``--no-examples``)."""
    run = _run(plan, context, "0")
    if run.not_run is not None:
        return None
    result = run.results[0] if run.results else None
    if plan.kind == "signature" and (result is None or result.get("status") not in ("ok", "mismatch")):
        return None  # no live signature here (a C function, a module that does not import): the source decides
    if plan.kind == "name" and result is not None and result.get("status") == "setup_failed":
        return None  # the module does not import here (a library it needs is missing): the source decides
    reproduced = result is not None and result.get("status") == plan.expected["status"] and (
        plan.expected["status"] != "raised" or error_kind(result.get("error", "")) == plan.expected.get("error"))
    shown = _shown(result, run)
    if reproduced and plan.alone is not None and _agrees(plan.alone, context):
        reproduced, shown = False, f"{shown}; run alone (its block and the doc's imports, as a reader who starts " \
            "there), it shows what the doc states: the blocks before it are alternatives, not one session"
    if reproduced and plan.kind == "step" and _permuted(plan.stated, plan.expected.get("got", "")) and \
            _seed_orders(plan, context):
        reproduced, shown = False, f"{shown}; under another hash seed, as in a reader's interpreter, it prints " \
            "these lines in another order (a set's or a dict's order, which no doc can state)"
    return Witness(plan.code, plan.stated, shown, reproduced, plan.claim_line)


def _agrees(plan: Plan, context: ExampleContext) -> bool:
    """Whether the witness shows what the doc states (keyring's README: after one block sets a test keyring, the
    next block's `get_password` shows the default backend's answer, which the doc states for it)."""
    results = _run(plan, context, "0").results
    return bool(results) and results[0].get("status") == "ok"


def _run(plan: Plan, context: ExampleContext, hash_seed: str) -> SandboxRun:
    # each doc step it holds has the session's limit, and one more: a cold interpreter imports the package again
    return run_script(plan.to_json(), context.sys_path, context.timeout_s * (plan.steps + 1), context.memory_mb,
                      context.sandbox, context.root, hash_seed)


def _permuted(stated: str, got: str) -> bool:
    """The doc states the characters the session printed, in another order."""
    squeezed, said = "".join(got.split()), "".join(stated.split())
    return bool(squeezed) and squeezed != said and sorted(squeezed) == sorted(said)


def _seed_orders(plan: Plan, context: ExampleContext) -> bool:
    """Whether the order the doc states another way is the hash seed's: the witness run again under other seeds
    (a session's is fixed) prints another order (beartype's eli5 page iterates a set of strings). Only a stated
    output that permutes the printed one costs these runs."""
    for seed in _READER_SEEDS:
        results = _run(plan, context, seed).results
        again = str(results[0].get("got", "")) if results and results[0].get("status") == "mismatch" else None
        if results and results[0].get("status") == "ok" or again is not None and again != plan.expected["got"]:
            return True
    return False


def held(found: DocFinding, witness: Witness | None) -> DocFinding:
    """The finding with its witness; a note when the witness does not show it again."""
    if witness is None:
        return found
    finding = replace(found.finding, witness=witness)
    if not witness.reproduced:
        finding = lower(finding, Severity.NOTE, "its witness (the doc's lines up to it, run as one script at the "
                        f"project root) does not show it: {witness.shown}")
    return DocFinding(finding, found.line)


def _shown(result: Mapping[str, Any] | None, run: SandboxRun) -> str:
    if result is None:
        return "it did not finish in time" if run.timed_out else f"it did not finish ({describe_exit(run.exit_code)})"
    status = result.get("status")
    if status == "setup_failed":
        return f"the doc's lines before it fail as one script: {result.get('error', '')}"
    if status in ("raised", "wrong_exception", "missing"):
        return f"it raises {result.get('error', '')}"
    if status == "found":
        return f"it exists: {result.get('got', '')}"
    if status == "ok":
        return "what the doc states"
    return str(result.get("terminal") or result.get("got", "")) or "nothing"
