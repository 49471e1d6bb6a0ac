"""The rule base class and its registry.

A rule is a visitor over the `ast` of one function in compile scope. Declaring a subclass with a
`code` registers it; `all_rules()` imports every catalogue module (`catalogue_modules()`) once.

A rule declares what a function must hold for it to report there (`Rule.words`,
`Rule.may_report`, `Rule.reads_breaks`): before a function's walk, `rules_for` leaves out the
rules that cannot report in it, from the words of its code alone (`Outline`), and the walk
does not happen when none is left. Most rules look for calls of a few names; most functions
call none of them.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from breaklint import DOCS_URL
from breaklint.class_attributes import SelfAssignments
from breaklint.codes import catalogue_modules, family
from breaklint.findings import (
    Applicability,
    Evidence,
    Finding,
    Fix,
    Origin,
    ProbeFailure,
    Range,
    Severity,
    Status,
)
from breaklint.index import word_set
from breaklint.syntax import Visitor

if TYPE_CHECKING:
    from breaklint.rewrites import Rewrite
    from breaklint.scope import Scope, ScopedFunction
    from breaklint.source import LazyLines
    from breaklint.tensorness import FunctionFacts

GB_URL = "https://meta-pytorch.github.io/compile-graph-break-site/gb/{}.html"


@dataclass(frozen=True, slots=True)
class RuleContext:
    """What a rule may know about the function it visits."""

    path: str
    function: str  # qualified name of the visited function, e.g. "Encoder.forward"
    scope: Scope  # why it is compiled: its compile root, and whether calls reach it from there
    imports: dict[str, str]  # local alias -> dotted name, e.g. {"np": "numpy"}
    facts: FunctionFacts  # tensor-ness of names and enclosing loops, current as rules visit
    source: LazyLines  # the file's text, for rules that build fixes
    definition: ast.FunctionDef | ast.AsyncFunctionDef  # the function the walk visits
    disabled_calls: tuple[str, ...] = ()  # callees as written that are compiler-disabled
    # For a method: what its class assigns to `self.<attribute>` (its submodules).
    self_assignments: SelfAssignments = field(default_factory=lambda: SelfAssignments([], {}))
    # `self.<name>` reads of a `functools.cached_property` that objects made while compiling
    # have not computed yet (`ScopedFunction.cached_reads`).
    cached_reads: tuple[str, ...] = ()
    # Calls into installed libraries that break inside them (`ScopedFunction.dependency_breaks`).
    dependency_breaks: tuple[str, ...] = ()
    # The rules that observe every report as it is made (see `Rule.observe`).
    observers: list[Rule] = field(default_factory=list)
    # `breaklint.fixes.tensor_operands` by operation, shared by the rules that ask: each
    # operation is read once per walk, and the operations its reading passed through.
    operands: dict[int, list[ast.expr]] = field(default_factory=dict)
    operands_covered: set[int] = field(default_factory=set)

    @property
    def root(self) -> bool:
        return self.facts.root


@dataclass(frozen=True, slots=True)
class Outline:
    """What the prefilter knows of a function before its walk (`Rule.may_report`)."""

    code: str  # its lines, from its first decorator's
    # The words of its code (decorators included): identifiers, keywords, and the words of its
    # strings and comments; a name that an import binds (`np`, `gb` of `from torch._dynamo
    # import graph_break as gb`) also counts as each part of what it imports.
    words: frozenset[str]
    function: ScopedFunction
    self_assignments: SelfAssignments  # what its class assigns to `self.<attribute>`

    @classmethod
    def of(
        cls,
        text: str,
        imports: Mapping[str, str],
        function: ScopedFunction,
        self_assignments: SelfAssignments,
    ) -> Outline:
        """The outline of a function whose code is `text`, with `imports` its import table."""
        words = word_set(text)
        for word in words & imports.keys():
            words.update(imports[word].split("."))
        return cls(text, frozenset(words), function, self_assignments)


def called(*names: str) -> frozenset[str]:
    """The words of a rule that looks for calls of these names as resolved
    (`FunctionFacts.resolve`: `torch.nn.functional.pad`): their last parts, which the code
    writes (`F.pad(x)`) or an import binds (`from torch.nn.functional import pad as p`)."""
    return frozenset(name.rstrip(".").rpartition(".")[2] for name in names)


def within(*prefixes: str) -> frozenset[str]:
    """The words of a rule that looks for calls of any name resolved under these prefixes
    (`time.`, `numpy.`): their first parts."""
    return frozenset(prefix.partition(".")[0] for prefix in prefixes)


@dataclass(frozen=True, slots=True)
class Report:
    """A rule's raw report: a node in the visited snippet, positions resolved by the engine."""

    code: str
    node: ast.AST
    message: str
    hint: str | None
    fix: Fix | None
    severity: Severity | None = None  # overrides the rule's severity
    # Whether it is an error in the configurations that take the `if` branches it is under:
    # a warning only because a configuration decides the branch.
    error_when_taken: bool = False
    # Under an `if` decided while tracing (`FunctionFacts.conditional`): `Finding.guarded`.
    guarded: bool = False


@dataclass(frozen=True, slots=True)
class FixExample:
    """A fix as its rule's page shows it, and as the test suite proves it: `before` is flagged
    with this fix, `after` is what `--fix --unsafe-fixes` writes, and `probe` (an expression
    returning (callable, args)) runs both, under Dynamo and eagerly."""

    before: str
    after: str
    probe: str
    # Eager outputs of `after` equal those of `before` within this (0: exactly).
    tolerance: float = 0.0
    # The graphs and breaks of `after` under Dynamo (no frame skipped): one graph, or more
    # where the fix removes a frame skip and the break before it (another rule's) stays.
    counts: tuple[int, int] = (1, 0)
    # Frames Dynamo still skips after the fix: a fix of a frame of its own inside a frame
    # another rule's break skips (BL205) leaves that skip.
    frames_skipped: int = 0
    # The fix's own applicability, where it differs from the rule's (`fix_applicability`):
    # an unsafe form beside a rule's safe ones (its page says why).
    applicability: Applicability | None = None

    def applies_as(self, rule: type[Rule]) -> Applicability | None:
        """Whether `--fix` alone makes this fix (safe) or only `--unsafe-fixes`."""
        return self.applicability or rule.fix_applicability


class Phase(StrEnum):
    """Where a rule's findings come from."""

    STATIC = "static"  # a matcher over the code of functions in compile scope
    FILE = "file"  # a file (or a function) breaklint could not check: it describes no statement
    DYNAMIC = "dynamic"  # only running Dynamo on a probe reports it


class Rule(Visitor):
    code: ClassVar[str]
    phase: ClassVar[Phase] = Phase.STATIC
    name: ClassVar[str]  # kebab-case
    severity: ClassVar[Severity]
    message: ClassVar[str]  # one line: what is wrong here
    hint: ClassVar[str | None] = None  # one line: what to write instead
    # Documentation page, in ruff's fixed sections. `example` must be flagged and break under
    # Dynamo; `use_instead` must be clean and compile to one graph (the test suite runs both,
    # with `probe` appended: an expression returning (callable, args)).
    what: ClassVar[str]
    why: ClassVar[str]
    example: ClassVar[str]
    # The files (path under a folder on `sys.path` -> text) of an installed library the
    # example calls: the page shows them, and its tests install them first.
    example_library: ClassVar[Mapping[str, str]] = {}
    use_instead: ClassVar[str]
    probe: ClassVar[str | None] = None
    # Whether `--fix` alone applies the rule's fixes (safe) or only with `--unsafe-fixes`;
    # None: the rule offers none. `fix_safety` says why, for the page.
    fix_applicability: ClassVar[Applicability | None] = None
    # The libcst rewrites its fixes name (`Fix.rewrite`) besides the shared ones
    # (`rewrites.SHARED`), each given the node at the fix's target; only the fix engine, which
    # imports libcst, calls them.
    rewrites: ClassVar[Mapping[str, Rewrite]] = {}
    fix_safety: ClassVar[str] = "This rule offers no automatic fix."
    # Each rewrite the rule offers, shown before and after (the first is the page's).
    fix_examples: ClassVar[tuple[FixExample, ...]] = ()
    gb_ids: ClassVar[tuple[str, ...]] = ()
    # Whether a finding marks a graph break at that spot (a break inside a loop then also
    # skips the whole frame, see BL202).
    breaks_graph: ClassVar[bool] = True
    # Whether the rule is about recompiling rather than breaking: its probe then gives a list
    # of calls, on which the page's example compiles once per call and `use_instead` at most
    # twice (the first call, then one graph general in the value: automatic dynamic).
    recompiles: ClassVar[bool] = False
    # Whether a finding says that Dynamo skips the function's whole frame, which then runs
    # eagerly (BL202, BL204, BL206 to BL210): the constructors it calls run eagerly too.
    skips_frame: ClassVar[bool] = False
    # Whether that skip needs an object of the function's `ScopedFunction.method_holders`
    # (BL209): where it may not happen, only where one is made, so only those run eagerly.
    skips_where_holders_are_made: ClassVar[bool] = False
    # Its `finish` reads what the other rules' `finish` report (the frame skips of BL202,
    # BL204, BL206, BL207): it runs after theirs, whatever the codes' order.
    finishes_last: ClassVar[bool] = False

    # The prefilter (`rules_for`): a function's code holds one of these words wherever the rule
    # reports (see `Outline.words`; `called` and `within` give the words of names looked up as
    # resolved); None: it may report in any function. A rule that also reports from what its
    # class or the analysis knows (`Outline.self_assignments`, `ScopedFunction.held_objects`)
    # says so in `may_report`.
    words: ClassVar[frozenset[str] | None] = None
    # Whether it reports only from the breaks of other rules or of the callees
    # (`ScopedFunction.breaking_calls`): it then runs only where such a break may be reported.
    reads_breaks: ClassVar[bool] = False

    # Which of the hooks below a rule overrides (set for each subclass): a function's walk
    # calls only those, as most rules override none.
    observes: ClassVar[bool] = False
    finishes: ClassVar[bool] = False
    restates: ClassVar[bool] = False

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        self.reports: list[Report] = []
        if self.observes:
            context.observers.append(self)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.observes = cls.observe is not Rule.observe
        cls.finishes = cls.finish is not Rule.finish
        cls.restates = cls.restate is not Rule.restate
        if "code" in cls.__dict__:
            if family(cls.code) is None:
                raise RuntimeError(f"rule code {cls.code} is in no family of breaklint.codes")
            if cls.code in _REGISTRY:
                raise RuntimeError(f"rule code {cls.code} is declared twice")
            _REGISTRY[cls.code] = cls

    def report(
        self,
        node: ast.AST,
        message: str | None = None,
        *,
        hint: str | None = None,
        fix: Fix | None = None,
        severity: Severity | None = None,
    ) -> None:
        facts = self.context.facts
        if facts.skipped(node):
            # under `if not torch.compiler.is_compiling():` (or after `is_compiling() or`)
            # Dynamo never sees it
            return
        error_when_taken = (severity or self.severity) is Severity.ERROR
        if severity is None and facts.conditional and self.severity is Severity.ERROR:
            # Under `if self.training:` or a config flag the break happens only in the
            # configurations that take the branch: a warning, not an error.
            severity = Severity.WARNING
        report = Report(
            self.code,
            node,
            message or self.message,
            hint or self.hint,
            fix,
            severity,
            error_when_taken,
            facts.conditional,
        )
        self.reports.append(report)
        for observer in self.context.observers:
            observer.observe(report)

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        """Whether the rule may report in the function `outline` describes: False only where
        it certainly cannot, and the walk then leaves it out. By default, whether the code
        holds one of its `words`."""
        return cls.words is None or not cls.words.isdisjoint(outline.words)

    def observe(self, report: Report) -> None:
        """Called with every rule's report as it is made, where the traversal then is (what
        `self.context.facts` says); a rule that overrides it observes the reports."""

    def finish(self, reports: list[Report]) -> None:
        """Called once the traversal is over, with every rule's reports for the function."""

    def restate(self, reports: list[Report]) -> list[Report]:
        """Called after every rule's `finish`, with every report of the function: the reports
        as this rule's knowledge changes them (BL202: after a break that skips the frame, the
        rest of it runs eagerly). Not called where the function has no report: a restatement
        changes reports, it makes none."""
        return reports

    @classmethod
    def function_findings(
        cls, path: str, function: ScopedFunction, reports: Sequence[Report], lines: list[str]
    ) -> list[Finding]:
        """Findings away from the function's own code, from every rule's reports in it (a
        hook's registration, say); called only when the function has reports."""
        return []

    @classmethod
    def dynamic_status(cls, finding: Finding, joined: Sequence[Finding]) -> Finding:
        """The finding once the dynamic phase has given every statement finding its status
        (`joined`): a rule whose findings point at code that never runs under Dynamo (a hook's
        registration) takes its status from them."""
        return finding

    @classmethod
    def url(cls) -> str:
        return f"{DOCS_URL}rules/{cls.code}-{cls.name}/"

    @classmethod
    def finding(
        cls,
        path: str,
        line: int,
        column: int,
        end_line: int | None = None,
        end_column: int | None = None,
        *,
        message: str | None = None,
        severity: Severity | None = None,
        hint: str | None = None,
        url: str | None = None,
        scope: Scope | None = None,
        origin: Origin = Origin.STATIC,
        status: Status = Status.UNVERIFIED,
        fix: Fix | None = None,
        evidence: Evidence | ProbeFailure | None = None,
        guarded: bool = False,
    ) -> Finding:
        """The one way a finding is made: what is left out comes from the rule."""
        return Finding(
            code=cls.code,
            name=cls.name,
            severity=severity or cls.severity,
            message=message or cls.message,
            path=path,
            range=Range(
                line,
                column,
                line if end_line is None else end_line,
                column if end_column is None else end_column,
            ),
            url=url or cls.url(),
            hint=hint or cls.hint,
            scope=scope,
            origin=origin,
            status=status,
            fix=fix,
            evidence=evidence,
            guarded=guarded,
        )


_REGISTRY: dict[str, type[Rule]] = {}


def collect_reports(visitors: list[Rule]) -> list[Report]:
    """Every report of a finished traversal, including those that `finish` adds."""
    reports = [report for visitor in visitors if visitor.reports for report in visitor.reports]
    finishers = [visitor for visitor in visitors if visitor.finishes]
    for visitor in sorted(finishers, key=lambda visitor: visitor.finishes_last):
        before = len(visitor.reports)
        visitor.finish(reports)
        reports.extend(visitor.reports[before:])
    if not reports:
        return reports  # a restatement changes reports, it makes none: most functions have none
    for visitor in visitors:
        if visitor.restates:
            reports = visitor.restate(reports)
    return reports


def rules_for(rules: Sequence[type[Rule]], outline: Outline) -> list[type[Rule]]:
    """The rules, in their order, that may report in the function `outline` describes (the
    prefilter: see `Rule.words`); those that read breaks only where a kept rule breaks the
    graph, or the function calls one that breaks."""
    key = tuple(rules)
    plans = _PREFILTERS.get(key)
    if plans is None:
        plans = _PREFILTERS[key] = (
            _Prefilter.of([rule for rule in rules if not rule.reads_breaks]),
            _Prefilter.of([rule for rule in rules if rule.reads_breaks]),
        )
    kept = plans[0].kept(outline)
    if outline.function.breaking_calls or any(rule.breaks_graph for rule in kept):
        kept.update(plans[1].kept(outline))
    return [rule for rule in rules if rule in kept]


@dataclass(frozen=True, slots=True)
class _Prefilter:
    """`Rule.may_report` of some rules, asked at once: those that keep its default answer
    (whether the code holds one of their `words`) are found by a set intersection with the
    function's words, not a call each (most rules, for each of the functions in scope); the
    others are asked, in their order."""

    always: frozenset[type[Rule]]  # the default answer, and no words: every function
    by_word: dict[str, tuple[type[Rule], ...]]  # the default answer: the rules of each word
    asked: tuple[type[Rule], ...]  # their own `may_report`

    @classmethod
    def of(cls, rules: Sequence[type[Rule]]) -> _Prefilter:
        default = Rule.may_report.__func__  # type: ignore[attr-defined]
        always: set[type[Rule]] = set()
        asked: list[type[Rule]] = []
        by_word: dict[str, list[type[Rule]]] = {}
        for rule in rules:
            if rule.may_report.__func__ is not default:  # type: ignore[attr-defined]
                asked.append(rule)
            elif rule.words is None:
                always.add(rule)
            else:
                for word in rule.words:
                    by_word.setdefault(word, []).append(rule)
        return cls(
            frozenset(always),
            {word: tuple(found) for word, found in by_word.items()},
            tuple(asked),
        )

    def kept(self, outline: Outline) -> set[type[Rule]]:
        kept = set(self.always)
        by_word = self.by_word
        for word in outline.words & by_word.keys():
            kept.update(by_word[word])
        kept.update(rule for rule in self.asked if rule.may_report(outline))
        return kept


# The prefilter of each list of rules checked (`rules_for`): a few per run, one per set of
# enabled codes. Rule classes only: nothing of a file or a function.
_PREFILTERS: dict[tuple[type[Rule], ...], tuple[_Prefilter, _Prefilter]] = {}


@cache
def all_rules() -> dict[str, type[Rule]]:
    """Every declared rule by code, in code order."""
    for module in catalogue_modules():
        importlib.import_module(module)
    return dict(sorted(_REGISTRY.items()))


def why_title(rule: type[Rule]) -> str:
    """The title of a page's "why" section: a recompile rule's code does not break the graph."""
    return "Why it recompiles" if rule.recompiles else "Why it breaks the graph"


def rule_page(rule: type[Rule]) -> str:
    """The rule's documentation page as Markdown, in fixed sections."""
    references = "\n".join(
        f"- Dynamo graph break {gb}: {GB_URL.format(gb.lower())}" for gb in rule.gb_ids
    )
    code_sections = [
        f"## {title}\n```python\n{snippet.strip()}\n```"
        for title, snippet in (("Example", rule.example), ("Use instead", rule.use_instead))
        if snippet.strip()  # rules about files breaklint could not check have no snippets
    ]
    if rule.example_library:
        installed = "\n\n".join(
            f"`{path}`:\n```python\n{text.strip()}\n```"
            for path, text in rule.example_library.items()
        )
        code_sections.insert(0, f"## The installed library the example calls\n{installed}")

    def fix_options(fix: FixExample) -> str:
        return "--fix" if fix.applies_as(rule) is Applicability.SAFE else "--fix --unsafe-fixes"

    sections = [
        f"# {rule.code} {rule.name} ({rule.severity})",
        f"## What it does\n{rule.what.strip()}",
        f"## {why_title(rule)}\n{rule.why.strip()}",
        *code_sections,
        f"## Fix safety\n{rule.fix_safety.strip()}",
        *(
            f"## Fix{f' {n}' if len(rule.fix_examples) > 1 else ''}\nBefore:\n```python\n"
            f"{fix.before.strip()}\n```\nAfter `breaklint {fix_options(fix)}`:\n```python\n"
            f"{fix.after.strip()}\n```"
            for n, fix in enumerate(rule.fix_examples, 1)
        ),
        f"## References\n{references or '- none'}\n- This page: {rule.url()}",
    ]
    return "\n\n".join(sections) + "\n"
