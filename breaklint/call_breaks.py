"""Which calls break the graph inside the function they reach: callee summaries.

Dynamo inlines a project function it traces; when that function breaks, the break happens at
the call in the caller's frame too. Where the caller's behaviour depends on it (a loop or a
`try` body around the call skips the frame, BL202 and BL204; any call, in a function holding
an object whose attributes hold bound methods of its own, BL209), the rules must know which of
the calls they see break. This module answers it project-wide from what the rules already found:
a function whose own findings hold a break that is certain (an error) certainly breaks when
called, one whose breaks are all warnings may break, and a function that calls one that
breaks (at any depth, cycles included) may break: whether it makes that call on every path
is known only inside it. One pass over the call edges of the functions in scope, from the
breaking ones backwards: linear in the calls.

The hand-off is `ScopedFunction.breaking_calls`: "callee=certain CODE path:line" (or
"=maybe") for each call as written whose targets break, naming the break it rests on.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from breaklint.dependencies import library_path
from breaklint.scope import DefinitionRef, Project, ScopedFunction


@dataclass(frozen=True, slots=True)
class Break:
    """A break a call reaches: certain or not, and where it is (`CODE path:line`)."""

    certain: bool
    where: str
    message: str = ""  # the finding's, told at the linted calls into a library that reach it
    # Under an `if` Dynamo decides while tracing (`Finding.guarded`): in a library, whether
    # it happens depends on the values the linted call passes.
    guarded: bool = False


def breaking_calls(
    project: Project,
    scoped: Mapping[str, list[ScopedFunction]],
    own: Mapping[DefinitionRef, Break],
) -> dict[str, list[ScopedFunction]]:
    """The scoped functions, each with the calls it makes that reach a function that breaks
    (`own`: the break each function's own findings hold, by function)."""
    module_of = {index.path: module for module, index in project.by_module.items()}
    refs = {
        DefinitionRef(module_of[path], f.qualname): f
        for path, functions in scoped.items()
        for f in functions
    }
    # Who calls each function, and the targets of the calls of each function in scope where a
    # break inside the callee changes what Dynamo does with the caller's frame.
    targets: dict[DefinitionRef, dict[str, tuple[DefinitionRef, ...]]] = {}
    callers: dict[DefinitionRef, list[DefinitionRef]] = {}
    # The calls of a method of a local that holds an object the function makes: Dynamo
    # cannot rebuild that bound method either (as for `Helper(n).run(x)`); each with what the
    # calls that make the object reach (its class's `__init__`).
    made: dict[DefinitionRef, dict[str, tuple[DefinitionRef, ...]]] = {}
    # `self.step(x)` of an abstract `step`, which runs one of the subclasses' overrides: it
    # breaks where every override does (the overrides of a class hierarchy's abstract method
    # mostly differ in whether they break), found once the others' summaries are known.
    abstract: list[tuple[DefinitionRef, str, tuple[DefinitionRef, ...]]] = []

    def add(ref: DefinitionRef, callee: str, reached: tuple[DefinitionRef, ...]) -> None:
        for target in reached:
            callers.setdefault(target, []).append(ref)
        # In a function that makes an object holding bound methods of its own, any call
        # that breaks may skip the frame (BL209).
        anywhere = bool(refs[ref].method_holders)
        if reached and (anywhere or callee in blocked[ref] or callee in made.get(ref, ())):
            targets[ref][callee] = reached

    blocked: dict[DefinitionRef, set[str]] = {}
    # (callee, caller) where a followed library's function calls a function of its library,
    # the only one its call reaches, on its straight-line path (`FunctionInfo.sure_callees`):
    # a certain break in the callee is a certain break of the caller.
    sure: set[tuple[DefinitionRef, DefinitionRef]] = set()
    # The calls of linted functions that reach only functions of followed libraries
    # (`breaklint.dependencies`): a break there is reported at the call, wherever it is.
    into_libraries: dict[DefinitionRef, dict[str, tuple[DefinitionRef, ...]]] = {}

    for ref in refs:
        info = project.function(ref)
        if info is None:
            continue
        blocked[ref] = set(info.blocked_callees)
        targets[ref] = {}
        for callee in info.callees:
            overrides = project.replacing_overrides(ref.module, info, callee)
            runs = overrides or [
                t.ref for t in project.call_targets(ref.module, info, callee) if not t.declared
            ]
            reached = tuple(target for target in runs if target in refs)
            makers = project.new_object_makers(ref.module, info, callee) if reached else []
            if makers:
                made.setdefault(ref, {})[callee] = tuple(
                    target.ref
                    for maker in makers
                    for target in project.call_targets(ref.module, info, maker)
                )
            if (
                len(runs) == 1
                and reached
                and ref.module in project.followed
                and reached[0].module in project.followed
                and callee in info.sure_callees
            ):
                sure.add((reached[0], ref))
            if overrides:
                abstract.append((ref, callee, reached))
            else:
                add(ref, callee, reached)
            if (
                reached
                and ref.module not in project.followed
                and all(target.module in project.followed for target in reached)
            ):
                into_libraries.setdefault(ref, {})[callee] = reached
    summary = _summaries(own, callers, sure)
    while abstract:  # each round may make another abstract method's overrides all break
        breaking = [call for call in abstract if call[2] and set(call[2]) <= summary.keys()]
        if not breaking:
            break
        abstract = [call for call in abstract if call not in breaking]
        for ref, callee, reached in breaking:
            add(ref, callee, reached)
        summary = _summaries(own, callers, sure)
    # A break in a library's file is named from its top-level package, as BL516 names it.
    shown = {ref: _shown(project, found) for ref, found in summary.items()}
    result: dict[str, list[ScopedFunction]] = {}
    for path, functions in scoped.items():
        module = module_of[path]
        result[path] = []
        for function in functions:
            ref = DefinitionRef(module, function.qualname)
            function = _with_breaks(function, targets.get(ref, {}), made.get(ref, {}), shown)
            result[path].append(
                _with_library_breaks(project, function, into_libraries.get(ref, {}), summary)
            )
    return result


def _with_library_breaks(
    project: Project,
    function: ScopedFunction,
    calls: Mapping[str, tuple[DefinitionRef, ...]],
    summary: Mapping[DefinitionRef, Break],
) -> ScopedFunction:
    """`function` with `dependency_breaks`: for each call into a library whose targets break,
    the library function reached and the first break it rests on, shown from the library's
    top-level package."""
    entries = []
    for callee, reached in calls.items():
        breaking = [(target, summary[target]) for target in reached if target in summary]
        if not breaking:
            continue
        # The same one whatever order the targets came in (sets: PYTHONHASHSEED): one that
        # happens whatever the values first, then certain first
        target, found = min(
            breaking, key=lambda pair: (pair[1].guarded, not pair[1].certain, pair[1].where)
        )
        certain = len(breaking) == len(reached) and all(b.certain for _, b in breaking)
        code, _, place = found.where.partition(" ")
        path, _, line = place.rpartition(":")
        shown = library_path(path, _module_of_path(project, path))
        name = f"{project.modules.names[target.module]}.{target.qualname}"
        entries.append(
            f"{callee}={_certainty(certain, found.guarded)} {name} {shown}:{line} {code} "
            f"{found.message}"
        )
    if not entries:
        return function
    return dataclasses.replace(function, dependency_breaks=tuple(entries))


def _certainty(certain: bool, guarded: bool) -> str:
    """How sure a call into a library is to break: `guarded` where the break is under an `if`
    the values passed decide (BL516 then only informs), else `certain` or `maybe`."""
    if guarded:
        return "guarded"
    return "certain" if certain else "maybe"


def _shown(project: Project, found: Break) -> Break:
    """`found` with the path of its place from the library's top-level package, where the
    place is in a followed library's file."""
    code, _, place = found.where.partition(" ")
    path, _, line = place.rpartition(":")
    module = project.modules.key_of.get(path)
    if module is None or module not in project.followed:
        return found
    shown = library_path(path, _module_of_path(project, path))
    return dataclasses.replace(found, where=f"{code} {shown}:{line}")


def _module_of_path(project: Project, path: str) -> str:
    return project.modules.names[project.modules.key_of[path]]


def _summaries(
    own: Mapping[DefinitionRef, Break],
    callers: Mapping[DefinitionRef, list[DefinitionRef]],
    sure: Collection[tuple[DefinitionRef, DefinitionRef]] = frozenset(),
) -> dict[DefinitionRef, Break]:
    """The fixed point: a function's own break, else (a maybe) the first break found through
    the functions it calls: one that happens whatever the values (not `guarded`) before one
    under a traced `if`, each reached from the breaks of its kind first. Through a call in
    `sure` (callee, caller), a certain break stays certain."""
    summary = dict(own)
    for guarded in (False, True):
        pending = deque(ref for ref, found in own.items() if found.guarded is guarded)
        while pending:
            ref = pending.popleft()
            for caller in callers.get(ref, ()):
                certain = summary[ref].certain and (ref, caller) in sure
                known = summary.get(caller)
                # A library function's own break under a traced `if` gives way to one its
                # callees make whatever the values; a maybe to a certain one (`sure`).
                if (
                    known is None
                    or (not guarded and known.guarded)
                    or (certain and not known.certain and known.guarded is guarded)
                ):
                    summary[caller] = dataclasses.replace(summary[ref], certain=certain)
                    pending.append(caller)
    return summary


def _with_breaks(
    function: ScopedFunction,
    calls: Mapping[str, tuple[DefinitionRef, ...]],
    made: Mapping[str, tuple[DefinitionRef, ...]],
    summary: Mapping[DefinitionRef, Break],
) -> ScopedFunction:
    entries = []
    on_new_objects = []
    for callee, reached in calls.items():
        breaks = [summary[target] for target in reached if target in summary]
        if not breaks:
            continue
        # A call that may reach several functions breaks certainly only if each of them does.
        certain = len(breaks) == len(reached) and all(b.certain for b in breaks)
        # The same one whatever order the targets came in (sets: PYTHONHASHSEED): certain first
        named = min(breaks, key=lambda b: (not b.certain, b.where))
        entries.append(f"{callee}={'certain' if certain else 'maybe'} {named.where}")
        # Where making the object certainly breaks, Dynamo resumes after it: the resumed
        # frame holds an object made before it, whose bound method it can rebuild.
        made_breaking = any(
            (b := summary.get(maker)) is not None and b.certain for maker in made.get(callee, ())
        )
        if callee in made and not made_breaking:
            on_new_objects.append(callee)
    if not entries:
        return function
    return dataclasses.replace(
        function, breaking_calls=tuple(entries), new_object_calls=tuple(on_new_objects)
    )
