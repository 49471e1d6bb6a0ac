"""The static engine: files -> parse + index + own-scope check (ast, in workers; parse + index
only for a file linked to others by its path, `_index_only`) -> project scope -> re-check of
what it changes -> findings.

Workers receive jobs (`breaklint.jobs`) and return plain data; no syntax tree leaves a worker.

Cost model (session 20, `benchmarks/static_phases.py`: a CPU clock around each phase's entry point,
no profiler; transformers' 538 modeling files, `--jobs 1 --no-cache`, 13.7 s of CPU on a loaded
two-core machine, against 2.1 s for `ast.parse` of every file): the rules' walk 24% (its hooks'
work: the dispatch itself, `syntax.walk`'s `visit`, is an eighth of it in a profile), the index 17%
(as much as the parse: 2.8 s against 2.6 s for the same files in one loop), the parse 15%, the
file's own scope 12% (nine tenths of it `Project.call_targets`) and analysis 9%, the rest of each
function's check 5% (its facts, its visitors, its findings), the rest of `check_file` 5% (most of it
freeing each file's tree: 0.45 s for the corpus's trees after indexing, 0.27 s right after parsing),
the prefilter 2.7%, the engine's own work 2.1%, the words 1.9%, the rules' `finish` and `restate`
1.7%, and the whole project pass (its scope, analysis, call summaries and rechecks) 2.6%; a cold run
that fills a cache adds 4% (`--cache`: the entries' JSON and their files). The work is linear in the
lines (25.7 us of CPU a line; the costliest file, 70 us a line) and spread: in a profile no rule
hook takes more than an eighth of the walk (the largest: BL203 asking `facts.kind` of every call and
operator, now walked only in functions written with `for`: half its hook's calls, 3% fewer kinds
computed, the other rules ask most of the same; the facts visitor's `leave_Assign` and
`visit_FunctionDef`; the shape rules' `visit_Assign`), and the rules' own walks of a function or a
subtree (`_frame_skip.branch_paths`, now once per function for all the rules that ask,
`_masked_subsets.subset_plan`, once per mask; `TensorSizeArgument._forget`, now nothing where the
rule holds no name) are about 1% together. A checked function's own parameter and return annotations
are not walked (`syntax.walk(..., annotations=False)`: Python evaluates them where the function is
defined, not in its frame): 10% fewer nodes visited (584,250 to 526,629 on this corpus), 18% fewer
kinds computed (`torch.Tensor | None` is a `BinOp`: a third of the `BinOp` hooks' calls), 2% fewer
calls in all, findings identical. Making the index's dispatch one call per node instead of two
measured no faster (0.87 s either way for a third of the corpus: calls between Python functions are
cheap since 3.11; the time is in the hooks' work, not in the passes). On this corpus the work done
twice is small: 550 parses for 538 files (the 12 more are the rechecks), and 54 files linked, whose
functions checked once against the project's scope would save at most that 2.6%. Findings cannot be
kept by a function's text across files: the rules read the whole file's lines
(`data_dependent_branch`, `fixes`), and only 27% of the nodes of the corpus's function definitions
are in a copy of a definition's text seen before. What is left is the per-node work of the two walks
(the index's; the facts visitor's and the rules' together) and of the scope and analysis over the
index, each already one pass.

On transformers' whole `models` folder (2,597 files, every one linked to the others through the
packages' `__init__` files) the same clock gave, before `_index_only`, 28.0 s: the project pass
16% (its scope 8.2%, analysis 6.9%) on top of each file's own scope (7.7%) and analysis (5.9%),
which it made provisional, and 3,010 parses (413 rechecks); with `_index_only`, 23.5 s (-16%):
no own scope or analysis, one parse more for each file with a function in scope (the parse 26%,
the rechecks' included), the project pass 24%. Findings identical (`--output-format json` on
that tree, tests/corpus, tests/accuracy and each of tests/projects). With `--jobs 2` on the
modeling files, the workers spent about 0.9 s more CPU than one process (pickling the results
about 0.25 s) and the engine's process 1.0 s (its imports, the project pass, unpickling about
0.3 s).

In session 21 (a sampling profiler, py-spy, and callgrind's instruction counts, which the load
of a shared machine does not change) what was left were per-call costs inside the hot loops,
not passes: on Python 3.11 each read of an enum member (`Kind.TENSOR`) goes through
`EnumType.__getattr__`'s slot (about 130 ns: `Kind.is_tensor`, asked of most kinds read, took
680 ns, 290 ns with a module tuple); `getattr(node, field, default)` for a field the node's type
lacks raises and catches an AttributeError (the compile stage asked every call for its
`type_params`, `SelfAssignments` every block for its `handlers`); the prefilter called each
rule's `may_report` for each function (half a million calls on the modeling files: the rules
that keep the default answer are now found by one intersection of the function's words with a
word index, `rule._Prefilter`); the tensor-text patterns read each function's whole text where
its words say they cannot match. Together 4.9% fewer instructions in the index, the scope, the
analysis and the rules of a sample of the modeling files (23 files, callgrind), findings
identical. Reading every `Kind.X` of the facts and the rules through a plain class would save
0.6% more.

Cost, for a cold run over F files of L lines (a warm run is one cache read, whatever F):
- Per file, in a worker: one read, one `ast` parse, one indexing walk, which also notes what
  CPython's compiler may reject after its parser accepted it (`breaklint.compile_stage`): only such
  files are compiled to bytecode too, for BL001's verdict and message (4 of transformers' 538
  modeling files, each a `global`; 13 when every starred target was noted, `a, *b = c` included:
  1.5% of the CPU). The words of its code (`index.code_words`, a fiftieth of the CPU: one pass of
  C-level byte translation and split). Then the file's own scope and analysis, then, for each
  function in scope, the rules' prefilter (`rule.rules_for`: the words of its text, one more
  translation and split, against the words each rule declares, and what scope and the class
  know) and one walk that runs the facts visitor and the rules kept together (what several
  rules ask of one node, such as `fixes.tensor_operands` and `facts.tensor_method`, is computed
  once per walk; a rule's `finish`, `restate` and `observe` are called only where it overrides
  them; no visitor hooks `Name`, so names are not visited at all). Then the file's calls that
  break as the file alone sees them (`breaklint.call_breaks`, over a project of the file), and a
  second walk, with the tree at hand, of the functions that make such a call
  (`FileResult.settled`), and a third of the `nn.Module` `__init__`s that what those
  findings say runs eagerly (`checker.eager_inits`, BL211). All linear in L. The
  cyclic collector is paused meanwhile: the walks leave no cycle, so each tree is freed by
  reference counting when its file is done; between files a worker's collector runs only once
  200,000 more objects are alive (`_start_worker`: at the default threshold it passed over
  each file's results once more, 150 passes per worker on transformers' modeling files with
  `--jobs 2`, none now), and this process pauses its own for the whole run (it holds every
  file's results to the end: 190 passes with `--jobs 2`; with `--jobs 1` the pause saved 3% of
  the CPU, session 11). Timed phase by phase in one process over
  transformers' modeling files (`--jobs 1 --no-cache`, 27.1 s of CPU on a heavily loaded
  machine, session 13): the function checks 32% (the walk 20%, the prefilter 3.4%, the
  rules' `finish` and `restate` 2.4%), the parse 17.5%, indexing (the compile stage's notes
  included) 16%, the file's own scope 9% and analysis 7%, the call summaries 5% (four
  fifths of it the call targets of every function in scope, since shared with the scope:
  see below), the project's scope in this process 4%, the words 2%, reading,
  lines, suppressions and the imports the rest; a cold run with a cache adds its entries
  (about 3%: `dataclasses.asdict` of the findings and `json.dumps`) and, with workers,
  pickling (0.4 s of CPU in the workers, 0.14 s unpickling here). Most functions are walked
  (8,207 of 9,772 checked): a subscript keeps BL302 and BL304, and a rule that breaks the
  graph keeps the eight that read breaks. The walk's hooks make a fix only for a report
  (BL201 made one for every `if`: a tenth of the walk in a profile), and node types no
  visitor hooks around a field are walked without per-field steps. What is left is
  spread: no rule takes more than a twentieth of the walk; the facts visitor's bindings,
  the shared `fixes.tensor_operands` and the dispatch itself are its largest parts (the
  dispatch is as fast without its per-field test where no hook is around a field, session
  13). Timed again in session 16 (22.5 s of CPU, same corpus and options): the function
  checks 34% (the walk with its hooks 21%, the prefilter 3.7%, most of it the class's
  `self.<attribute>` assignments, which the rules read later, `collect_reports` 2.2%), the
  parse 17.5%, indexing 17%, the own scope 10%, analysis 8%, freeing each file's tree about
  4% (0.9 s: the nodes are cold by then; freeing the same trees right after parsing them
  takes 0.4 s), the words 2%. One traversal shared by the index and the rules would save at
  most one traversal's skeleton: `syntax.walk` with a visitor that hooks nothing passes over
  every tree of the corpus in 0.7 s of CPU (3% of the run; `ast.walk` takes 2.2 s), and
  the index's dispatch made one call shorter per node (a million calls) measured no faster:
  the time is in the hooks' work, not in the passes. Results travel
  between processes pickled, each file's index (nine tenths of the 22 MB for this corpus)
  as bytes of its own, unpickled only where the engine reads it (the linked files',
  below): the words travel beside it.
- In this process, serially: which files are linked to others (`_isolated`: a set
  intersection per file over their words, and over the words of the files beside the
  probes), then the project's scope and analysis over the linked files' indexes only (the
  collector paused; linear in the calls it resolves, each name looked up once), then a
  re-check, in workers, of the few files whose functions the project's scope changes
  (another parse of those files, not another index: the job carries the file's index, and the
  functions' nodes are found by their first lines, from the statements alone; on the torch
  package with `--scope all` most files are linked and rechecked, and indexing them again was
  about a tenth of that run's profile). A file no other reaches and that reaches no other keeps
  its own check, whose scope, analysis and call summaries are the project's: on
  transformers' modeling files 54 of 538 files are linked. Then, over the linked files,
  one more check of the functions that call, in a loop, a `try` body or a generator
  expression, a function whose findings break the graph (`breaklint.call_breaks`: the
  summaries are one pass over the call edges; no call of a linked file reaches a file
  alone). With `--jobs 2` this process spent 0.8 s of CPU on that corpus (2.3 s when it
  summarised every file's calls, re-parsed the files to check again and unpickled every
  index). With J workers a run takes about (workers' part) / J + (serial part) + the
  pool's start; once started, the pool takes the rechecks too. The checker and the rules
  are imported here before the pool forks (`_import_checking`), not once per worker.
- The call summaries ask for the call targets of every function in scope of the project
  the scope and the analysis were found on (in a worker and here), which found most of them
  already. A project's answers do not depend on the order it is asked in
  (`Project._found_once`: what a value holds is kept by the depth it was asked at, and an
  answer cut short by a cycle only until the cycle is closed), so sharing them changes no
  finding; on their own project the summaries were a twelfth of the run (session 14,
  transformers' modeling files, `--jobs 1` under cProfile: 8.0% of the time before, 0.8%
  after; 6.8% fewer function calls in all).
- A run of one file (`breaklint FILE`, pre-commit) is its own project, alone as above: the
  scope, the analysis and the call summaries it was checked with are the project's, and
  are not computed again. What it pays besides is the interpreter and the imports of the
  static phase (the dynamic phase, the probes' reader, --hf, `breaklint graph` and libcst
  are imported only when used, rich only to colour findings on a terminal), and the report.
- Reports: concise, full, github and junit cost nothing more. JSON and SARIF carry each fix's
  edits (`breaklint.fixer.with_edits`, in J processes): files without a fix cost nothing;
  a file with fixes is read again, parsed by `ast` to find the functions that hold them,
  and libcst (ten times the cost of `ast`) parses only those functions, each once, and,
  when a fix adds `import torch`, the file's opening statements (its docstring and imports),
  which are all libcst's import adder reads (the whole file when a fix lies outside any
  function). Per part: one parse, one code generation that gives both the text back and
  every node's position, one rewrite that rebuilds only the nodes around the fixes, one
  code generation of the result, and `ast.parse` of it (edits never break the code). In a
  profile of the edits of the torch package with `--scope all` (2,923 fixes in 579 files,
  most of which lack `import torch`): libcst's parse and code generation of the functions
  half, the rewrites and their code a sixth, the `ast` parse an eighth, the import adder a
  tenth (a fixed cost per file: about 12 ms of CPU to construct libcst's AddImportsVisitor
  and the import gatherer it makes, which inspect their methods' decorators and types on
  every construction).
  `--diff` and `--fix` parse once each file whose fixes apply.
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import gc
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from breaklint.analysis import annotate
from breaklint.cache import (
    ResultCache,
    as_type,
    file_digest,
    findings_from_json,
    findings_to_json,
    index_from_json,
    index_to_json,
    text_digest,
)
from breaklint.call_breaks import breaking_calls
from breaklint.codes import known_codes
from breaklint.config import Selection, Settings
from breaklint.dependencies import (
    Followed,
    follow,
    imported_libraries,
    installed_packages,
    read_index,
)
from breaklint.discovery import package_parts
from breaklint.findings import Finding
from breaklint.index import ModuleIndex, build_index, code_words
from breaklint.jobs import CheckJob, Job, RecheckJob, Storing, Task
from breaklint.knowledge.answers import fingerprint
from breaklint.scope import Project, ScopedFunction, ScopeOptions, compile_scope
from breaklint.source import collector_paused, deep_recursion, read_regular

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from breaklint.checker import CheckedFunction, FileResult
    from breaklint.probe_roots import ProbeRoot

_POOL_MIN_FILES = 8  # below this, starting workers costs more than it saves
# A worker's cyclic collector runs once this many more objects that it tracks are alive than
# at its last pass: see `_start_worker`.
_WORKER_COLLECTION_THRESHOLD = 200_000


@dataclass(slots=True)
class LintResult:
    findings: list[Finding]
    files_checked: int
    files_skipped: int = 0
    warnings: list[str] = dataclasses.field(default_factory=list)  # for stderr, once per run
    # The SHA-256 of each file's bytes as linted (None: unreadable).
    digests: dict[str, str | None] = dataclasses.field(default_factory=dict)
    # The installed libraries' files the run followed, with their digests.
    libraries: dict[str, str | None] = dataclasses.field(default_factory=dict)


R = TypeVar("R")


def _run(task: Task[R]) -> R:
    return task.run()


class Workers:
    """A process pool shared by both phases, started only when a phase has enough files.

    The tasks for the largest files go first, so that no worker is left with a big one at the
    end while the others idle. A broken pool (a worker killed, out of memory?) finishes the
    work in this process.
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def map(self, tasks: Sequence[Task[R]]) -> list[R]:
        # Once started, the pool takes any two tasks: the rechecks after the first map are few.
        enough = 2 if self._pool is not None else _POOL_MIN_FILES
        if self.jobs <= 1 or len(tasks) < enough:
            return [task.run() for task in tasks]
        # Imported here: a run answered from the cache, or of a few files, never starts one.
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        if self._pool is None:
            _import_checking()
            context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
            self._pool = ProcessPoolExecutor(
                self.jobs, mp_context=context, initializer=_start_worker
            )
        order = sorted(range(len(tasks)), key=lambda i: -_size(tasks[i].path))
        chunk = max(1, len(tasks) // (self.jobs * 32))
        try:
            computed = self._pool.map(_run, [tasks[i] for i in order], chunksize=chunk)
            results: list[Any] = [None] * len(tasks)
            for i, result in zip(order, computed, strict=True):
                results[i] = result
            return results
        except BrokenProcessPool:
            self.jobs = 1
            return [task.run() for task in tasks]


def _import_checking() -> None:
    """Import what every job runs (the checker and every rule) before the pool forks: each
    forked worker starts with it, where it imported it again (a quarter of a second of CPU
    each), and this process, which reads the rules' breaks after the first map
    (`checker.own_breaks`), has it then. A spawned worker imports it anew."""
    from breaklint.checker import check_file  # noqa: F401  (imported for the workers)
    from breaklint.rule import all_rules

    all_rules()


def _start_worker() -> None:
    """Set up a worker's cyclic collector, which the engine pauses in its own process. What
    a worker makes for a file lives until its result is sent, and a pass of the collector at
    the default threshold (700 objects) came after nearly every file, reading that file's index
    and results once more (and, in a full pass, every object of the forked process). The walks
    leave few cycles (about 130 objects a file), so nearly every object is freed by reference
    counting when its file is sent; the threshold still bounds what cycles left behind hold.
    What the process holds from the engine is frozen: never read by a pass (nor copied from
    the engine's pages by one)."""
    gc.freeze()
    gc.set_threshold(_WORKER_COLLECTION_THRESHOLD)
    gc.enable()


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def lint_paths(
    files: Iterable[str],
    settings: Settings,
    jobs: int,
    use_cache: bool = True,
    selection: Selection | None = None,
    unsaved: Mapping[str, str] | None = None,
    cache: ResultCache | None = None,
    probes: Sequence[str] = (),
) -> LintResult:
    """Lint files end to end and return sorted findings (of the rules `selection` enables:
    by default, those the settings select). `unsaved` holds texts, by path, to check instead
    of what the files hold (an editor's buffers); `cache`, one to use instead of the
    project's folder (a language server's, in memory); what the `probes` (files or folders)
    compile are compile roots too."""
    files = list(files)
    unsaved = unsaved or {}
    if selection is None:
        selection = settings.selection(known_codes())
    packages: dict[str, list[str]] = {}
    package_of = {path: package_parts(path, packages) for path in files}
    codes_of = {path: selection.codes_for(path) for path in files}
    compiled, callers, search_folders = _probed(probes, files)
    scope = ScopeOptions(
        settings.scope == "all",
        settings.roots,
        compiled,
        callers,
        search_folders,
        settings.dependencies,
        settings.dependencies_exclude,
    )
    # What each file held when linted: --fix rewrites a file only if it still holds that.
    digests = {
        path: text_digest(unsaved[path]) if path in unsaved else file_digest(path) for path in files
    }
    if use_cache and cache is None:
        cache = ResultCache(settings.root, fingerprint())
    refused = cache.refused() if use_cache and cache is not None else None
    # The collector paused for the whole run (see `source.collector_paused`): the results
    # this process gathers are alive until the end, and each pass read those since the last.
    if not use_cache or cache is None or refused:
        with collector_paused(), Workers(jobs) as workers:
            result = _lint(files, package_of, codes_of, scope, workers, None, {}, unsaved)
        result.warnings += [f"cache not used: {refused}"] if refused else []
        result.digests = digests
        return result
    # With nothing changed the whole run is one entry: no index, scope or per-file lookups.
    key = None
    if all(digests.values()):
        inputs = [(path, package_of[path], digests[path], sorted(codes_of[path])) for path in files]
        key = cache.key(["run", dataclasses.asdict(scope), inputs])
        stored = cache.load(key)
        try:
            # The entry holds too the library files the run followed: changed, it is a miss.
            if stored is not None and all(
                file_digest(path) == digest for path, digest in stored["libraries"]
            ):
                findings = findings_from_json(stored["findings"], set(files))
                skipped = as_type(int, stored["skipped"])
                return LintResult(findings, len(files), skipped, digests=digests)
        except (KeyError, TypeError, ValueError):  # an entry of the wrong shape is a miss
            pass
    with collector_paused(), Workers(jobs) as workers:
        result = _lint(files, package_of, codes_of, scope, workers, cache, digests, unsaved)
    if key is not None:
        stored = {
            "findings": findings_to_json(result.findings),
            "skipped": result.files_skipped,
            "libraries": sorted(result.libraries.items()),
        }
        cache.store(key, stored)
    result.digests = digests
    return result


def _probed(
    probes: Sequence[str], files: list[str]
) -> tuple[tuple[ProbeRoot, ...], tuple[tuple[str, str], ...], tuple[str, ...]]:
    """What the probes compile (`ScopeOptions.compiled`), the files beside them that are
    not linted, with their digests (`ScopeOptions.callers`), and the folders they put on
    `sys.path` (`ScopeOptions.search_folders`)."""
    if not probes:  # a run without probes does not import their reader
        return (), (), ()
    from breaklint.probe_roots import probe_callers, probe_roots, probe_search_folders

    linted = {os.path.abspath(path) for path in files}
    callers = tuple(
        (path, digest)
        for path in probe_callers(probes)
        if path not in linted and (digest := file_digest(path)) is not None
    )
    return probe_roots(probes), callers, probe_search_folders(probes)


def _lint(
    files: list[str],
    package_of: dict[str, list[str]],
    codes_of: dict[str, frozenset[str]],
    scope: ScopeOptions,
    workers: Workers,
    cache: ResultCache | None,
    digests: dict[str, str | None],
    unsaved: Mapping[str, str],
) -> LintResult:
    """Both phases, each file answered from the cache when its entry is there (a file that
    could not be read has no digest and is not cached)."""
    module_of = {path: _module_name(path, package_of[path]) for path in files}
    index_only = _index_only(files, package_of, module_of)
    checks = [
        CheckJob(
            path,
            package_of[path],
            module_of[path],
            codes_of[path],
            scope,
            digests.get(path),
            text=unsaved.get(path),
            index_only=path in index_only,
        )
        for path in files
    ]
    checked_files = _cached_map(checks, workers, cache)
    findings = [
        problem
        for result in checked_files
        for problem in result.problems
        if problem.code in codes_of[result.path]
    ]
    jobs = _JobInputs(package_of, module_of, codes_of, digests, unsaved)
    callers = _caller_indexes(scope, module_of)
    libraries = Followed(_libraries(scope, package_of, module_of), _library_reader(cache))
    # A file that no other reaches and that reaches no other is its own project: the scope
    # it was checked against is the project's. The others are checked against the project
    # they form, with the installed libraries they call.
    reaching = _reaching(checked_files, libraries)
    alone = _isolated(checked_files, module_of, package_of, scope, callers) - reaching - index_only
    findings.extend(
        _in_project_scope(
            checked_files, alone, callers, jobs, scope, workers, cache, libraries, reaching
        )
    )
    findings.sort(key=Finding.sort_key)
    skipped = sum(1 for r in checked_files if not r.parsed and not r.problems)
    followed = {path: file_digest(path) for path in libraries.modules}
    return LintResult(findings, files_checked=len(files), files_skipped=skipped, libraries=followed)


def _libraries(
    scope: ScopeOptions, package_of: dict[str, list[str]], module_of: dict[str, str]
) -> dict[str, str]:
    """The installed libraries the run may follow (none with `dependencies` off): the
    top-level packages on `sys.path` other than the linted tree's own."""
    if not scope.dependencies:
        return {}
    own = {package[0] if package else module_of[path] for path, package in package_of.items()}
    return installed_packages(own | set(scope.dependencies_exclude))


def _library_reader(
    cache: ResultCache | None,
) -> Callable[[str, list[str]], ModuleIndex | None]:
    """How `Followed` reads a library module: its index kept in the cache by the file's
    digest, as a library changes seldom and each run that reaches it reads the same modules."""
    if cache is None:
        return read_index

    def read(path: str, package: list[str]) -> ModuleIndex | None:
        digest = file_digest(path)
        if digest is None:
            return read_index(path, package)
        key = cache.key(["library-index", path, package, digest])
        index = cache.load_result(key, index_from_json)
        if index is None:
            index = read_index(path, package)
            if index is not None:
                cache.store(key, index_to_json(index))
        return index

    return read


def _reaching(checked_files: list[FileResult], libraries: Followed) -> set[str]:
    """The linted files that import from an installed library: their words name its
    top-level package, and their index (read only for those) imports from it."""
    names = libraries.packages.keys()
    return {
        result.path
        for result in checked_files
        if result.parsed
        and not names.isdisjoint(result.words.split())
        and (index := result.index) is not None
        and imported_libraries(index, libraries.packages)
    }


def _module_parts(path: str, module: str) -> set[str]:
    """The last parts a module is found by (`_isolated`): its module name's, its file's."""
    parts = os.path.normpath(os.path.splitext(path)[0]).split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    return {module.rpartition(".")[2], *parts[-1:]}


def _index_only(
    files: list[str], package_of: dict[str, list[str]], module_of: dict[str, str]
) -> set[str]:
    """The files linked to others by their paths alone, known before any is read: a part of
    the file's package is another linted module's last part (`pkg/__init__.py` for
    `pkg/bert/modeling_bert.py`), which `_isolated` links it to. Such a file is only parsed
    and indexed by its worker: its functions are checked once, against the project's scope,
    where checking them against its own scope first was work done twice (in a package's
    tree every file is linked so: on transformers' `models` folder, 2,597 files, the own
    scope and analysis were an eighth of the run). A file named here that `_isolated` leaves
    alone (what it is linked to does not parse) is in the project too: nothing reaches it
    there, so its scope is its own."""
    owners: dict[str, set[str]] = {}
    for path in files:
        for part in _module_parts(path, module_of[path]):
            owners.setdefault(part, set()).add(path)
    return {
        path for path in files if any(owners.get(part, set()) - {path} for part in package_of[path])
    }


def _isolated(
    checked_files: list[FileResult],
    module_of: dict[str, str],
    package_of: dict[str, list[str]],
    scope: ScopeOptions,
    callers: Mapping[str, tuple[str, ModuleIndex]],
) -> set[str]:
    """The files whose functions' scope and analysis in the project are those of the file
    alone: no other file can reach them, and they can reach no other.

    The project finds a definition of another module through a dotted name whose parts
    include that module's last one (`bert` of `pkg.bert`, or of `pkg/bert/__init__.py`,
    also when the project names it by its path), from the file's code, its package (for
    relative imports) or a probe's compile root. A file whose words (`index.code_words`)
    hold no other module's last part, and whose own last part no other file's words hold
    (nor those of a file beside the probes: what it passes decides what the code holds),
    is alone."""
    owners: dict[str, list[str]] = {}  # a module's last part -> the files of such modules
    for result in checked_files:
        if not result.parsed:
            continue  # not in the project: nothing reaches it
        for part in _module_parts(result.path, module_of[result.path]):
            owners.setdefault(part, []).append(result.path)
    linked: set[str] = set()
    for probed in scope.compiled:
        for part in probed.dotted.replace("()", ".").split("."):
            linked.update(owners.get(part, ()))
    for _, caller in callers.values():
        for word in owners.keys() & set(caller.words.split()):
            linked.update(owners[word])
    for result in checked_files:
        if not result.parsed:
            continue
        path = result.path
        words = owners.keys() & {*result.words.split(), *package_of[path]}
        for other in (other for word in words for other in owners[word] if other != path):
            linked.update((path, other))
    return {result.path for result in checked_files} - linked


@dataclass(frozen=True, slots=True)
class _JobInputs:
    """What the engine hands a file's jobs, by path."""

    package_of: dict[str, list[str]]
    module_of: dict[str, str]
    codes_of: dict[str, frozenset[str]]
    digests: dict[str, str | None]
    unsaved: Mapping[str, str]


def _in_project_scope(
    checked_files: list[FileResult],
    alone: set[str],
    callers: Mapping[str, tuple[str, ModuleIndex]],
    jobs: _JobInputs,
    scope: ScopeOptions,
    workers: Workers,
    cache: ResultCache | None,
    libraries: Followed,
    reaching: set[str],
) -> list[Finding]:
    """The findings of every function in the project's scope: a file alone keeps those of
    its own check; of the linked files, those checked with the scope the file gave them are
    kept, the others checked again (in workers). The functions of the installed libraries
    that compiled code reaches are checked too, for the breaks the linted calls reach; their
    own findings are not reported."""
    caller_indexes = {path: index for path, (_, index) in callers.items()}
    modules = {**jobs.module_of, **{path: module for path, (module, _) in callers.items()}}
    by_function: dict[tuple[str, str], list[Finding]] = {}
    for result in checked_files:
        if result.path in alone and result.parsed:
            # Its calls that break were settled by its own check (`FileResult.settled`).
            settled = {done.function.qualname: done for done in result.settled}
            for done in result.checked:
                done = settled.get(done.function.qualname, done)
                by_function[result.path, done.function.qualname] = done.findings
            # And the metaclass `__call__`s it made eagerly (`checker.eager_inits`), out of scope.
            for done in result.settled:
                by_function.setdefault((result.path, done.function.qualname), done.findings)
    # Only these files' indexes are read (unpickled, when workers sent them).
    linked = {r.path: r.index for r in checked_files if r.path not in alone and r.index is not None}
    if not linked:
        return _unique(by_function)
    # The analysis makes hundreds of thousands of objects, and recurses through summaries
    # as deep as the chains of bindings they stand for.
    with collector_paused(), deep_recursion():
        if reaching:
            project, scopes = follow(
                {**linked, **caller_indexes}, modules, scope, libraries, reaching
            )
        else:
            project = Project({**linked, **caller_indexes}, modules, scope.search_folders)
            scopes = compile_scope(project, scope)
        in_project = annotate(project, scopes)
    # Each function's findings: checked with the file's own scope where the project's is
    # the same, checked again where it differs; those of the libraries' functions in scope
    # checked here.
    rechecks: list[RecheckJob] = []
    scoped: dict[str, list[ScopedFunction]] = {}
    if libraries.modules:
        linked = {**linked, **libraries.indexes()}
        jobs = _with_libraries(jobs, libraries)
        for path in sorted(libraries.modules.keys() & in_project.keys()):
            scoped[path] = in_project[path]
            rechecks.append(_recheck(jobs, path, in_project[path], linked[path]))
    for result in checked_files:
        if result.path not in linked:
            continue
        functions = in_project.get(result.path, [])
        if functions:
            scoped[result.path] = functions
        kept, missing = _reusable(result.checked, functions)
        for qualname, found in kept:
            by_function[result.path, qualname] = found
        if missing:
            rechecks.append(_recheck(jobs, result.path, missing, linked[result.path]))
    _attribute(by_function, rechecks, _cached_map(rechecks, workers, cache))
    # Then once more, the functions that call one whose findings break the graph: a loop or a
    # `try` around such a call skips the caller's frame (`breaklint.call_breaks`). No call of
    # a linked file reaches a file alone.
    # The rule API: not imported for a run the cache answers.
    from breaklint.checker import eager_inits, own_breaks

    # The scope's project, whose call targets the summaries ask for again.
    with collector_paused():
        summarised = breaking_calls(project, scoped, own_breaks(scoped, by_function, project))
    rechecks = []
    for path, functions in summarised.items():
        changed = [f for f in functions if f.breaking_calls or f.dependency_breaks]
        if changed:
            rechecks.append(_recheck(jobs, path, changed, linked[path]))
    _attribute(by_function, rechecks, _cached_map(rechecks, workers, cache))
    # Then the `__init__`s of the modules that what those findings say runs eagerly
    # (`checker.eager_inits`): a few functions, checked a third time.
    rechecks = [
        _recheck(jobs, path, inits, linked[path])
        for path, inits in eager_inits(summarised, by_function, project).items()
        if path in linked
    ]
    _attribute(by_function, rechecks, _cached_map(rechecks, workers, cache))
    return [f for f in _unique(by_function) if f.path not in libraries.modules]


def _with_libraries(jobs: _JobInputs, libraries: Followed) -> _JobInputs:
    """`jobs` with the followed library files, each checked with every rule."""
    every = frozenset(known_codes())
    followed = libraries.modules
    return _JobInputs(
        {**jobs.package_of, **{path: module[1] for path, module in followed.items()}},
        {**jobs.module_of, **libraries.names()},
        {**jobs.codes_of, **dict.fromkeys(followed, every)},
        {**jobs.digests, **{path: file_digest(path) for path in followed}},
        jobs.unsaved,
    )


def _unique(by_function: dict[tuple[str, str], list[Finding]]) -> list[Finding]:
    """The findings of every function; one told twice (a hook's registration, away from its
    function's code) once."""
    unique = {
        (f.path, f.code, f.range, f.message): f for found in by_function.values() for f in found
    }
    return list(unique.values())


def _recheck(
    jobs: _JobInputs, path: str, functions: list[ScopedFunction], index: ModuleIndex
) -> RecheckJob:
    return RecheckJob(
        path,
        jobs.package_of[path],
        functions,
        jobs.codes_of[path],
        jobs.digests.get(path),
        index,
        text=jobs.unsaved.get(path),
    )


def _attribute(
    by_function: dict[tuple[str, str], list[Finding]],
    rechecks: Sequence[RecheckJob],
    results: Sequence[list[Finding]],
) -> None:
    """The findings of each recheck, by the function that holds each: the last one checked
    that starts at or above its line (the first for a finding above them all)."""
    for job, found in zip(rechecks, results, strict=True):
        functions = sorted(job.functions, key=lambda f: f.start_line)
        starts = [f.start_line for f in functions]
        for function in functions:
            by_function[job.path, function.qualname] = []
        for finding in found:
            at = max(bisect.bisect_right(starts, finding.range.line) - 1, 0)
            by_function[job.path, functions[at].qualname].append(finding)


def _caller_indexes(
    scope: ScopeOptions, module_of: dict[str, str]
) -> dict[str, tuple[str, ModuleIndex]]:
    """The module names and indexes of the files beside the probes, each named by its file
    (as the probes import it), unless a linted module has that name."""
    taken = set(module_of.values())
    found = {}
    for path, _ in scope.callers:
        module = os.path.splitext(os.path.basename(path))[0]
        if module in taken:
            continue
        try:
            text = read_regular(path)
            tree = ast.parse(text, filename=path)
        except (OSError, SyntaxError, ValueError, RecursionError):
            continue
        index = build_index(path, tree, [])
        index.words = code_words(text.decode("utf-8", "replace"))
        found[path] = (module, index)
    return found


def _reusable(
    checked: list[CheckedFunction], functions: list[ScopedFunction]
) -> tuple[list[tuple[str, list[Finding]]], list[ScopedFunction]]:
    """The findings of functions checked with the scope the project gives them, relabelled,
    by function, and the functions that need checking again."""
    local = {c.function.qualname: c for c in checked}
    kept: list[tuple[str, list[Finding]]] = []
    missing: list[ScopedFunction] = []
    for function in functions:
        done = local.get(function.qualname)
        if done is None or dataclasses.replace(done.function, scope=function.scope) != function:
            missing.append(function)
            continue
        old = done.function.scope
        kept.append(
            (
                function.qualname,
                [
                    dataclasses.replace(f, scope=function.scope) if f.scope == old else f
                    for f in done.findings
                ],
            )
        )
    return kept, missing


def _cached_map(jobs: Sequence[Job[R]], workers: Workers, cache: ResultCache | None) -> list[R]:
    """`workers.map`, answering from the cache what it holds; what is computed is stored by
    the process that computed it."""
    if cache is None:
        return workers.map(jobs)
    results: list[R | None] = []
    missing: list[int] = []
    storing: list[Storing[R]] = []
    for job in jobs:
        parts = job.cache_key()
        key = None if parts is None else cache.key(parts)
        result = cache.load_result(key, job.result_from_json) if key else None
        if result is None:
            missing.append(len(results))
            storing.append(Storing(job, cache, key))
        results.append(result)
    for i, computed in zip(missing, workers.map(storing), strict=True):
        results[i] = computed
    return results  # type: ignore[return-value]


def _module_name(path: str, package: list[str]) -> str:
    stem = os.path.splitext(os.path.basename(path))[0]
    return ".".join(package if stem == "__init__" and package else [*package, stem])
