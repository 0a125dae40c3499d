"""The codes of ``targetlang upgrade``: every site it rewrites or reports carries one.

A code is stable: ``# targetlang: ignore[CODE]``, ``ignore`` and ``per-file-ignores`` name
it, and CI configurations keep it. Codes come in families by hundreds, so that a family
added later (a meaning that moved out of the target, a reason found across modules) takes
the next free hundred without renumbering anything:

====== ==================================================================================
TL0xx  the file itself (not valid for its type, not readable, not writable)
TL1xx  rewrites: what the upgrade changed (suppressing one keeps the old text)
TL2xx  a target known only at run time (``--runtime`` bridges most of them)
TL3xx  behaviour kept: a value that also reaches something other than a target
TL4xx  a target that cannot move to the release as it is
TL5xx  an API the release removed (``tvmc``, helpers, properties)
TL6xx  a legacy-looking value whose role is not known to be a target
TL7xx  meaning that moved out of the target (one code for each moved-meaning note, TMabc:
       TL7ac, the note's family and number; generated from the notes' data)
TL8xx  reasons found across the modules of a whole program
====== ==================================================================================

``targetlang upgrade --list-codes`` prints this table with what to do for each code;
docs/upgrade.md lists it too (a test keeps the two in step).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CODES", "Code", "FAMILIES", "matches", "moved_meaning_code", "unknown_codes"]


class Code(NamedTuple):
    """One code: its id, a short name, what it means, and what to do about it."""

    id: str
    name: str
    meaning: str
    action: str
    #: "error" (needs a person; exit 1), "fix" (a rewrite), "failure" (exit 2)
    level: str = "error"


FAMILIES = {
    "TL0": "the file itself",
    "TL1": "rewrites",
    "TL2": "known only at run time",
    "TL3": "behaviour kept: the value is also used as something other than a target",
    "TL4": "cannot move as it is",
    "TL5": "removed API",
    "TL6": "role not known to be a target",
    "TL7": "meaning moved out of the target",
    "TL8": "found across the modules of a program",
}

_ALL = [
    Code("TL001", "invalid-file", "the file is not valid for its type (a syntax error, JSON, "
         "YAML, TOML or a notebook its format refuses, bytes that are not its encoding); it "
         "is left byte for byte as it is",
         "fix the file, or exclude it (exclude / per-file-ignores) when it is invalid on "
         "purpose (a test fixture)"),
    Code("TL002", "unwritable-encoding", "the upgraded text holds characters the file's "
         "encoding (its coding cookie) cannot write; the file is left as it is",
         "change the file's encoding to UTF-8, or rewrite the site by hand"),
    Code("TL003", "rewrite-refused", "the rewritten file would not compile, or would not read "
         "as the same document but for the rewritten values; the file is left as it is",
         "rewrite the sites by hand (and report the file: the upgrade should not get here)"),
    Code("TL004", "unparsable-block", "a documentation code block or notebook cell holds a "
         "legacy target but is not valid in its language, so no site in it can be known",
         "fix the block, give its fence the right language, or suppress it "
         "(<!-- targetlang: ignore --> before a Markdown fence)"),
    Code("TL005", "internal-error", "the upgrade failed on this file (a bug in targetlang); "
         "the file is left as it is and the other files are upgraded",
         "report the file to targetlang's maintainers; exclude it meanwhile", "failure"),
    Code("TL006", "unreadable", "a path that cannot be read or written: missing, not "
         "permitted, a directory that cannot be listed, or not a regular file (a FIFO, a "
         "socket, a device) met in a directory walk",
         "fix the permissions or remove the path; exclude it if it is meant to be there",
         "failure"),
    Code("TL101", "target-rewritten", "a legacy target string became what the release reads: "
         "a dict in a Python target position, JSON text where a string holds it",
         "nothing: the change is the upgrade (suppress it to keep the old text)", "fix"),
    Code("TL102", "helper-rewritten", "a helper TVM 0.24 removed (tvm.target.cuda(), "
         "arm_cpu(...)) became Target({...}) of what it returned in TVM 0.21",
         "nothing: the change is the upgrade", "fix"),
    Code("TL103", "property-rewritten", "a Target property TVM 0.24 removed (t.arch, t.mcpu) "
         "became the read of what TVM 0.21's property read (t.attrs.get(...))",
         "nothing: the change is the upgrade", "fix"),
    Code("TL104", "helper-import-rewritten", "an import of removed helpers was dropped (every "
         "use rewritten) or moved to targetlang.compat (uses bridged)",
         "nothing: the change is the upgrade", "fix"),
    Code("TL105", "bridged", "a target known only at run time was routed through "
         "targetlang.compat (--runtime), which reads it as TVM 0.21 did",
         "nothing: install targetlang where the program runs", "fix"),
    Code("TL201", "runtime-target", "a target position holds a value known only at run time "
         "(a parameter its callers decide, a command-line option, an f-string, a call's "
         "result); a legacy string there fails on TVM >= 0.24",
         "run with --runtime (targetlang.compat reads it at run time), or make sure it is "
         "TargetJSON"),
    Code("TL202", "runtime-maybe-none", "a run-time target that may be None, which "
         "targetlang.compat.Target does not take, so --runtime leaves it",
         "route the value through targetlang.compat.Target where it is not None"),
    Code("TL203", "runtime-option", "an argparse option read by Target (type=Target): a "
         "legacy string given on the command line fails on TVM >= 0.24",
         "run with --runtime (type=targetlang.compat.Target), or pass TargetJSON"),
    Code("TL204", "runtime-helper", "a removed helper (tvm.target.cuda(...)) called with "
         "arguments known only at run time",
         "run with --runtime (the helper comes from targetlang.compat)"),
    Code("TL205", "runtime-shell-word", "a shell word holding a target built at run time "
         "($VAR, $(...)) that the upgrade cannot rewrite",
         "write the target as JSON text (`targetlang migrate TARGET` prints it)"),
    Code("TL301", "also-device-name", "the value reaches a target and is also a device name "
         "(tvm.device(x), tvm.runtime.device): rewriting it would break the device; left "
         "as it is",
         "give the target its own JSON value and keep the string for the device, or run "
         "with --runtime (the target positions are bridged, the string kept)"),
    Code("TL302", "also-compared", "the value reaches a target and is also compared (==, !=, "
         "in, a match, a dict key): rewriting it would change the comparison; left as it is",
         "compare the target's kind or attributes instead, or run with --runtime"),
    Code("TL303", "also-string", "the value reaches a target and is also used as a string "
         "(a method such as .split(), indexing, len, iteration): left as it is",
         "read the target's kind and attributes from Target(x) instead, or run with "
         "--runtime"),
    Code("TL304", "also-formatted", "the value reaches a target and is also formatted into "
         "a larger string (an f-string, +, %, .format, a path) that is not only printed: "
         "left as it is",
         "format the kind or another attribute instead, or run with --runtime"),
    Code("TL305", "also-unknown-use", "the value reaches a target and is also passed to code "
         "this file does not show (a function of another module, a method): what that code "
         "does with it is not known here, so it is left as it is",
         "check that code; if it only passes the value to a target, suppress this code "
         "(# targetlang: ignore[TL305]) or run with --runtime"),
    Code("TL401", "lossy", "the target holds options TVM moved out of Target (-system-lib, "
         "-executor, -runtime, -link-params): it cannot move without loss",
         "move those options to the executor and runtime (targetlang.migrate_config), then "
         "rewrite the target"),
    Code("TL402", "no-equivalent", "the release has no equivalent of the target (a kind it "
         "dropped, a value it refuses)",
         "choose another target for the release"),
    Code("TL403", "not-a-target", "a target position holds text that no release reads as a "
         "target",
         "fix the text (TVM 0.21 refused it too)"),
    Code("TL404", "implicit-concatenation", "a target position holds adjacent string "
         "literals (\"cuda \" \"-arch=sm_80\"): the upgrade rewrites one literal at a time",
         "join the literals, then upgrade again"),
    Code("TL405", "helper-refused", "a removed helper called with arguments TVM 0.21 itself "
         "refused",
         "fix the call"),
    Code("TL501", "tvmc", "a tvmc command line: tvmc left TVM in 0.20, and TVM 0.24+ has no "
         "command line to compile with",
         "build from Python (tvm.compile / relax.build) with the target as JSON "
         "(`targetlang tvmc TARGET` prints tvmc's targets as TargetJSON)"),
    Code("TL502", "removed-helper-import", "an import of helpers TVM 0.24 removed (it fails "
         "there) whose uses are known only at run time",
         "run with --runtime (they are imported from targetlang.compat)"),
    Code("TL503", "removed-property", "a Target property TVM 0.24 removed, read from a value "
         "that only looks like a Target, or one that TVM 0.21 computed",
         "read target.attrs (or compute it from target.kind and target.attrs)"),
    Code("TL504", "runtime-enabled", "tvm.runtime.enabled (or tvm.testing.device_enabled) "
         "given a legacy target text: TVM 0.24+ reads a bare kind name there and builds a "
         "Target from any other text, which fails for legacy text (and refuses JSON text)",
         "pass the kind name (tvm.runtime.enabled(\"llvm\")), or check what the target needs "
         "another way"),
    Code("TL505", "helper-like-call", "a documentation code block calls a function named "
         "like a helper TVM 0.24 removed (arm_cpu(...), x.mali(...)) through a name the "
         "block does not show to be tvm.target (a typo, a name bound elsewhere): it is not "
         "rewritten",
         "if it is tvm.target's helper, write the call as tvm.target.Target({...}) of its "
         "JSON (`targetlang migrate`), else suppress this code"),
    Code("TL506", "target-text", "the text of a Target (str(t), repr(t), an f-string or a "
         "format of it) used as more than a message: since TVM 0.24 str(Target) is JSON "
         "text ('{\"kind\":\"cuda\",...}') where TVM 0.21 gave 'cuda -keys=cuda,gpu "
         "-arch=...', so a device name, a comparison, a string method or a path built from "
         "it reads something else",
         "read what is needed from the Target itself: target.kind.name for a device or a "
         "comparison, target.attrs for an option"),
    Code("TL507", "removed-api", "an API that the release does not have and that no rewrite "
         "replaces: tvm.context (tvm.device since TVM 0.8; TVM 0.19 and 0.21 have none), AutoTVM's "
         "set_cuda_target_arch (AutoTVM left TVM before 0.21), helpers removed before TVM "
         "0.21 (tvm.target.micro, tvm.target.vta)",
         "what the message says: tvm.device(kind) for a device; the architecture in the "
         "target ({\"kind\": \"cuda\", \"arch\": \"sm_53\"}); the target as JSON "
         "(`targetlang migrate`) for a helper"),
    Code("TL601", "unknown-role", "a legacy target string in Python that is not known to "
         "reach a target (a constant, an expected value, a message)",
         "if it is a target, write it as JSON text (`targetlang migrate`); if it is text "
         "about a target, suppress it"),
    Code("TL602", "config-key", "a legacy target in a config value whose key does not name a "
         "target (not target, host, targets, *_target, ...): it may be an expected value",
         "if a tool reads it as a target, write it as JSON text or rename the key; "
         "otherwise suppress it"),
    Code("TL604", "shell-word", "a legacy target in a shell word whose place is not known "
         "to take a target: an option or a variable that does not name one, of a command "
         "whose reading of it no file of the run shows",
         "if the program reads it as a target, write it as JSON text (`targetlang migrate "
         "TARGET` prints it); if it is text about a target, suppress it"),
    Code("TL605", "legacy-template", "a string template (\"llvm -mcpu=%s\" % cpu, "
         "\"cuda -arch=sm_{}\".format(n), an f-string) that makes a legacy-looking target at "
         "run time and is not known to reach a target position (where it would be TL201): "
         "its text is put together at run time, so no tool can rewrite it",
         "build a dict from the same pieces ({\"kind\": \"llvm\", \"mcpu\": cpu}) "
         "instead of text, or route it through targetlang.compat.Target; if it is text "
         "about a target, suppress this code"),
    Code("TL606", "inline-code", "a legacy target or a call of a removed helper in inline "
         "code in a documentation page's prose (`llvm -mtriple=...`, `tvm.target.cuda()` in "
         "Markdown, ``...`` in reStructuredText): prose is never rewritten",
         "write it as JSON (`targetlang migrate TARGET` prints it) if readers copy it as a "
         "target; else suppress this code (<!-- targetlang: ignore --> or .. targetlang: "
         "ignore before the paragraph)"),
    Code("TL607", "docstring-example", "a docstring's example (a doctest, >>> and ... lines) "
         "holds a legacy target or a removed helper that cannot be rewritten in place safely "
         "(the docstring holds a backslash or its example lines are not as doctest reads "
         "them, the new text would need an import or holds the docstring's quote); examples "
         "that can are rewritten as code is",
         "rewrite the example by hand (`targetlang migrate TARGET` prints the JSON), or "
         "suppress this code"),
    Code("TL608", "text-file", "a legacy target in a file the upgrade reads but does not "
         "rewrite: plain text, a log, a build file (Makefile, Dockerfile, CMake), a source in "
         "another language (C/C++, CUDA, JavaScript, ...)",
         "if a program reads it as a target, write it as JSON text (`targetlang migrate "
         "TARGET` prints it); else suppress this code (targetlang: ignore on the line, or on "
         "a comment line before it)"),
    Code("TL609", "tuning-log", "a tuning log (AutoTVM, Ansor) or MetaSchedule database "
         "whose records hold legacy targets, reported once for the file",
         "run `targetlang logs normalize FILE` (it rewrites each record's target)"),
    Code("TL603", "text-block", "a legacy target in a documentation block that is neither "
         "Python nor shell (output, text)",
         "if it is output, suppress it (<!-- targetlang: ignore --> before the fence); if "
         "it is code, label the fence with its language"),
]



def moved_meaning_code(note_code: str) -> str:
    """The report code of a moved-meaning note: ``TMabc`` is ``TL7ac`` (its family ``a``
    and its number ``c`` within the family; the data keeps ``b`` at 0, a test checks)."""
    return f"TL7{note_code[2]}{note_code[4]}"


#: The moved-meaning notes the upgrade reports: how the release compiles the kind (TM1xx, at
#: a rewritten site) and options moved out of the target (TM2xx, at a site left as it is).
#: A renamed option (TM3xx) is carried by the rewrite itself: nothing to report.
MOVED_MEANING_FAMILIES = ("TM1", "TM2")


def _moved_meaning_codes() -> list[Code]:
    from ..meaning import table  # the notes' data, the one place that knows them

    codes = []
    for entry in table():
        if not entry["code"].startswith(MOVED_MEANING_FAMILIES):
            continue
        rewritten = entry["code"].startswith("TM1")
        codes.append(Code(
            moved_meaning_code(entry["code"]), entry["name"],
            f"{entry['message']} ({entry['code']}); "
            + ("the site was rewritten: the target reads the same and is compiled otherwise"
               if rewritten else "the site is left as it is: the option has no place in a "
               "target of the release"),
            "add the line the report gives where the target is compiled (it keeps TVM 0.21's "
            "meaning), then suppress the code" if rewritten else
            "move the option where the report says (targetlang.migrate_config() shows it), "
            "drop it from the target, and upgrade again"))
    return codes


_ACROSS_MODULES = [
    Code("TL801", "module-cycle", "following the value leads back to where it started "
         "(modules or functions that import or call each other): no answer is guessed, so it "
         "is left as it is",
         "give the target TargetJSON where it is written, then upgrade again"),
    Code("TL802", "unreadable-module", "the value comes from, or goes to, a module of the run "
         "that cannot be read as Python (its own TL001 says why): what it holds or does "
         "with the value is not known",
         "make that module valid Python, then upgrade again"),
    Code("TL803", "module-not-in-run", "the value is imported from a module of the project "
         "that is not among the files of this run (not given, excluded, or not found)",
         "upgrade the whole project in one run (targetlang upgrade on its directory), or give "
         "the value TargetJSON where it is written"),
    Code("TL805", "too-many-modules", "following the value goes through more modules than "
         "the upgrade follows (a long chain of imports, re-exports or calls): no answer is "
         "guessed, so it is left as it is",
         "give the target TargetJSON where it is written, or shorten the chain"),
    Code("TL804", "importable-parameter", "a target position holds a parameter of a function "
         "other modules can import: code outside the files of the run may call it, so its "
         "callers are not all known (the message names the callers seen)",
         "if only this project calls it, make it private (a leading underscore): its callers "
         "then decide it; else give every caller's target TargetJSON, or run with --runtime"),
]

#: Every code by its id, in order.
CODES: dict[str, Code] = {code.id: code for code in sorted(
    [*_ALL, *_moved_meaning_codes(), *_ACROSS_MODULES], key=lambda code: code.id)}


def matches(code: str, selectors: tuple[str, ...] | frozenset[str]) -> bool:
    """Whether ``code`` is selected by any of ``selectors``: a code, a prefix of codes
    (``TL3``, ``TL30``) or ``ALL``."""
    return any(s == "ALL" or code.startswith(s) for s in selectors)


def unknown_codes(selectors: list[str]) -> list[str]:
    """The selectors that select no code there is (a typo)."""
    return [s for s in selectors
            if s != "ALL" and not any(code.startswith(s) for code in CODES) and
            not any(s.startswith(f) and len(s) <= 5 for f in FAMILIES)]
