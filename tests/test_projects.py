"""The project-wide analysis seen through the CLI, on small projects of several files under
tests/projects/ whose source roots are no packages (a repository run from its root):

- false_findings: containers of tensors, `None` arguments, unions only a caller can decide,
  project methods named like torch's, tensors passed only on TorchScript's way, and what
  follows a return taken while compiling (mechanism 1);
- tensor_flow: tensor-ness through call sites, returns, tuple unpacking, buffers set in
  `__init__`, a constructor's arguments into the attributes `__init__` sets, containers, a
  local rebound from a tensor to a number before its use, a call whose argument rests on
  the value of a cycle (`h = shifted(h, whole(h.sum()))`), a mask made with
  `dtype=torch.bool` returned in a tuple, and an object's attribute passed to a parameter
  annotated as a tensor, and a parameter annotated with a type alias another module defines,
  and the elements of a tuple of tensors a loop iterates (mechanism 2);
- scope_edges: calls through a local alias, callables on attributes and in dicts,
  `functools.partial`, another object's method, a method of an instance made at module
  level, and imports that resolve only against the source root (mechanism 3);
- rule_forms: forms that break the graph with no rule before: a tensor as a slice bound, an
  in-place update through a mask a caller passes, `with torch.device(...)`, `hash(t)`
  arithmetic, `generator=` from an attribute, `warnings.warn` in a dataclass's
  `__post_init__`, a list of Python bools read as an index, and a comparison over a list
  after a dynamic-shape op, and one yielding a list's tensor as it is (`parts[i]`) after
  one (mechanism 4), each
  through an aliased module or a callable held on an attribute;
- held_objects: methods of objects made inline, `__call__` and methods of what a
  constructor's callers pass (through `super().__init__`) or its annotation names, of what a
  function returns, a subclass's override of `self.m()`, and the module functions reached
  only through them (mechanism 3); with probes, what their builder passes;
- named_attributes: methods and modules called only through `getattr(self, <name built in
  code>)` (an f-string, `%`, `+`, `str.format`), also what a method returning the `getattr`
  reads reaches (a subclass's method): Dynamo inlines each (mechanism 3);
- eager_frames: comprehensions that Python 3.11 runs as frames of their own, in a function
  whose frame a break in a loop or a `try` body skips: Dynamo compiles them alone (also one
  that reads only `self` in a method of an `nn.Module` class) and skips them too
  (mechanism 4);
- empty_rests: the rest of a function after a graph break that traces no op and calls only
  project functions tracing none (one that adds is inlined, and gives the rest a graph):
  Dynamo skips it and runs each function it calls as a frame of its own, two levels down too,
  whose comprehension over a `zip` it then skips (issue 20);
- partial_aliases: a module-level `functools.partial` of an imported function (`warnings.warn`),
  called in its module: a call of that function;
- held_methods: an object whose `__init__` (its own or a base's) stores a bound method of its
  own on an attribute, made in a function and read after a break there (its own, or one
  inside a function it calls): Dynamo cannot rebuild it and skips the frame at the break, and
  where a first such break may not happen, at the first break after the next such object; not
  an object nothing reads after the break, nor one whose attributes hold values (mechanism 4);
- stdlib_objects: methods of standard-library objects Dynamo cannot trace (a `ContextVar`, a
  `threading.Lock`) or traces as draws (a `random.Random`), known from where the object is
  made: an attribute `__init__` sets, a module-level instance, one imported from another
  module; and the `else` of `if token is None` dead where every caller passes None while
  compiling (mechanism 1);
- stdlib_queues: `bisect` and `heapq` on plain lists, the methods of a queue or an `Event`
  `__init__` makes or the compiled code makes in a local, and `with` on a `Condition`
  (mechanism 4);
- sorted_dicts: `sorted(d.items())` of a dict of tensors made in the function, and passed to
  a helper in another module; not a dict of numbers, nor the pairs sorted by name
  (mechanism 3);
- comprehended_lists: an element of a list comprehension whose element is a tensor, made in
  the function or returned by one of another module, read into an int; not a comprehension
  of numbers (mechanism 2);
- comprehended_dicts: `sorted(d.items())` of a dict comprehension whose value is a tensor,
  made in the function, and passed to a class of another module whose `__init__` hands it
  to a method; not a comprehension of numbers, nor one of what its own `for` binds
  (mechanism 3);
- skipped_torch_objects: making a torch object whose code Dynamo skips (a `SobolEngine`) in
  compiled code, and calling a method of one held in a local or in an attribute `__init__`
  sets, in a class of another module too; not a method of the same name on another object
  (mechanism 4);
- element_indices: a 0-dim tensor as an index, known from its making (an element of
  `torch.unique`'s values or counts, of what keeps their shape, of `torch.randperm`), and a
  store through a mask into a 0-dim tensor (mechanism 4);
- generator_breaks: generator functions the compiled code iterates: the first break in one,
  its own or a call's that breaks inside, gives up on the iterating frame, and a later break
  in it runs eagerly (info) (mechanism 4);
- partial_subclasses: making an instance of a project subclass of `functools.partial`, and
  of a subclass of that subclass in another module; not `functools.partial` itself
  (mechanism 4);
- wrapped_contexts: a decorator's wrapper that enters an attribute of its `self` parameter,
  an object made before the compiled call (mechanism 4);
- callee_breaks: calls of project functions that break inside them, from summaries of what
  the rules find in each function: in a loop the caller's frame is skipped (told as info at
  the call, certain when the callee's own break is, a maybe through another call), and in a
  `try` body too, with the breaks after it restated and its comprehensions skipped too
  (maybe skipped, a warning, where the callee maybe breaks, and not in the `else` of the
  `if` the skip is under); and
  a generator expression a builtin consumes whose element breaks skips the frame
  (mechanism 4);
- resumeless_blocks: a break inside a `with` block of a context manager Dynamo cannot enter
  again after a break (`warnings.catch_warnings()`, `contextlib.suppress` under an alias,
  `contextlib.ExitStack()`) skips the frame, its comprehensions too, and a `with
  torch.no_grad()` or a block without a break does not; a skip under a configuration's `if`
  is certain for what runs only in that branch (mechanism 4);
- made_objects: a method that breaks, called on an object made in the same expression
  (`Lookup().find(h)`, `makers.make_counter().count(h)`): Dynamo cannot rebuild the bound
  method and skips the caller's frame; the same method on an attribute set in `__init__`
  resumes after the call (mechanism 4);
- forwarded_keywords: keyword arguments a function passes on through its `**kwargs`
  (`super().__init__(sde=sde, **kwargs)`, `scaled(y, **options)`): an object reaches the
  attribute a base class's `__init__` sets (also one a helper makes where a parameter is
  None and returns in a tuple, the tuple's other items not), and a tensor a helper's
  parameter, while a number
  passed the same way decides nothing (mechanisms 2 and 3);
- numpy_objects: methods of the numpy objects that numpy calls Dynamo cannot trace make (a
  `SeedSequence`, a `RandomState`, a `default_rng` generator), held in a local or on an
  attribute `__init__` sets; not a method of an array (mechanism 4);
- object_scope: an instance of a class a factory function returns (one of several) or a
  module-level dict holds, a function a module-level list holds, and the elements of a
  container attribute (`nn.ModuleList(flows)`, `list(steps)`) that the constructor's callers
  fill with a list literal, `+=` or `append`, by index and iterated (mechanism 3);
- sparse_tensors: a sparse tensor a function makes, read after the break its making is, and
  passed on through `autograd.Function.apply` into `forward` and the helpers it calls: each
  frame it reaches is skipped at its first read (certain where the function made it, a maybe
  where a parameter is one from some callers only, or used with a method only sparse tensors
  have) (mechanisms 2 and 4);
- super_properties: a property's getter reading the base class's property of the same name
  through `super()` (a project base and a torch distribution): Dynamo gets the `property`
  object and skips the getter where the value is first used (mechanism 4);
- typed_dicts: a TypedDict with optional keys (`total=False`, `NotRequired[...]`, a base's
  `total=False` inherited), defined in another module and reached through an import or a
  module alias, made in compiled code: Dynamo cannot make it and breaks at the call; not one
  whose keys are all required, nor one whose qualifier is a string when the class is made
  (`from __future__ import annotations`) (mechanism 4);
- local_objects: a method of an object a function makes and holds in a local (an instance
  of a class a factory returns, or constructed): a break inside skips the caller's frame, as
  for `Helper(n).run(x)`; not for an object a factory function returns; tensors through
  `__call__` of an object on an attribute that the constructor's caller passes, into an
  untyped helper, and a chained comparison or `not` on tensors in an `assert`
  (mechanisms 2 to 4);
- registry_objects: a local bound to an instance of a class chosen from a module-level dict
  (`solver = SOLVERS[method](func, y0)`, the dict in a package's `__init__` holding classes
  of its modules): the classes' methods, inherited ones included, are traced with the
  arguments passed, and a break inside skips the caller's frame; not when the dict also holds
  a factory function, which may hand back an object made before (mechanism 3);
- attribute_stores: `self.attn = Attn(n)` in `__init__` stores the object and calls nothing
  of it: building layers in a loop breaks nowhere, even with `--scope all` (mechanism 3);
- self_references: an attribute that holds the object itself (`self._last = self`), whose
  methods, inherited ones included, are traced when called through it (mechanism 3);
- annotated_unions: a parameter annotated with a union that admits its default (`t0:
  Optional[Scalar] = 0.0`, the alias imported from another module) holds what its callers
  pass; an `elif` is judged past what the `if` before it narrows (`isinstance`) (mechanism 1);
- parameter_objects: methods of the objects a function's callers pass (`learner.loss(x)`,
  `policy.act(x)` with `choose(Greedy(), x)` and `choose(Sampled(1.0), x)`) and the functions
  (`score(x)` with `scored(centred, x)`), their breaks and
  what they return (`if learner.too_far(kl):` decides on a tensor); a tensor's method on a
  parameter (`actions.view`) is not taken for one (mechanism 3);
- builtin_truths: `any()`/`all()` drawing tensors (a generator of tensor tests, a tensor's
  rows) call bool() on each (and a generator's break skips the frame), not over Python values
  or sizes; a compiled module's input used as only a tensor can be (`lengths[:, None]`) is a
  tensor for certain as a slice bound, one used only as a bound is left as a guess
  (mechanisms 1 and 4);
- comprehension_targets: a comprehension's element reads what its `for` clauses bind,
  although the walk reaches the element first: `all(t0 < t1 for t0, t1 in zip(ts[:-1],
  ts[1:]))` compares a tensor's rows, `[float(t1 - t0) for ...]` reads them, and a shape's
  sizes are numbers (mechanism 2);
- scalar_annotations: a parameter annotated with Python numbers only (`ratio: Optional[Union[
  float, int]]`) holds one where its callers pass what a helper returns as a tensor on some
  paths only (a guess), and a tensor where a caller passes one for certain (mechanism 1);
- input_helpers: helpers whose returns a tensor method computes from a compiled module's
  input (`moments(x)` returning `x.mean(), x.std()`, `spread(x)`) hand tensors back, through
  tuple unpacking too (mechanism 2);
- base_calls: what a torch base class's method returns (`y = super().forward(x)` in a
  subclass of `nn.Linear`) is no Python value, and a module's own `__call__`, which runs
  before its `forward`, is traced (mechanisms 2 and 3);
- script_roots: a repository of several script folders run from its root, each with modules
  named like another's (`train/utils.py` and `infer/utils.py`, `models/model.py` and
  `apps/model.py`): each import resolves from its importer's folder, then the root (a folder
  that is no package, a package's relative import, a name a relative `import *` binds);
  linted as one tree, all the projects here find what each finds alone;
- nested_registries: a call through a registry of registries (`routines[loss][backend](x)`,
  the inner values a function and a `functools.partial` of one) reaches every callable the
  nested literals hold, also when the probes' roots name the package from its own folder
  (mechanism 3);
- path_folders (probed only): modules found by bare names from the folders the probes put on
  `sys.path`, packages though they are (mechanism 3);
- constant_flags: a parameter every caller passes one constant to (`strict=False`, or its
  own parameter passed on) decides `if strict and ...`, `if not exact:` and the `and` after
  a flag that is true, as Dynamo does; a flag the callers disagree on decides nothing, nor
  does a return under another `if` end the function (mechanism 1);
- tracing_helpers: project helpers whose every return is False while Dynamo traces
  (`torch._C._get_tracing_state()`, a wrapper of it, `not` of one, `or` with
  `torch.jit.is_scripting()`) decide their callers' `if`s, `not`, `and` and `or`, as torch's
  own checks do: no finding in the dead branches, nor in a function only they call; not one
  that returns something else on another path; and helpers true while compiling, through a
  call with arguments (`return _compiling_of(x)`) or a local bound to a check on each way of
  an `if` (mechanism 1);
- check_operands: a breaking call in an operand of `and`/`or` after a check that decides it
  while Dynamo traces (`torch.compiler.is_compiling() or t.item()`, `not is_compiling() and
  print(...)`, a project helper false while compiling, nested), or in the dead arm of a
  conditional expression, is never run: no rule reports it; one before the check, or after a
  check that decides nothing (`torch.jit.is_scripting() or ...`), is (mechanism 1);
- annotated_inputs: a helper's parameter annotated as a tensor holds one for certain where
  a compile root passes it an unannotated input (only guessed to be a tensor), and hands a
  tensor on to the helpers it calls (mechanism 2);
- numpy_sizes: `np.prod` of a shape, a slice of one or a list a starred target collects is
  an array numpy makes of the sequence, which Dynamo must read as a size (a warning: a
  sequence of one item is folded), of a written list of several ints certainly (mechanism 4);
- numpy_text: text made of a traced numpy result, even one computed from a shape's sizes
  (`np.log2(x.shape[-1])`): `str()` and `repr()` of it break, and an f-string of it used as a
  module dict's key, `%` and `str.format` skip the frame; `int()` of it first gives text
  Dynamo traces; and the array a numpy draw Dynamo cannot trace gives the frame that resumes
  after it, whose `max()` bounds a `range` (mechanism 4);
- optional_bounds: a size that an `if` computes from a tensor where a caller passes None,
  and another caller passes a Python int, is a tensor where that way runs (a warning)
  (mechanism 2);
- sparse_products: a parameter passed first to `torch.spmm` (a sparse matrix times a dense
  one) may be a sparse tensor: its first read skips the frame (a warning), and the `print`
  after it breaks only where it is not; not what `torch.mm` is given (mechanism 4);
- none_defaults: a parameter every caller leaves to its default `None` decides `if filename
  is None:` while Dynamo traces, so a frame skip in its body is certain, and the breaks after
  it are none (info): an `if` whose test is true while compiling makes its body as certain
  as the `if` itself (mechanism 1);
- sparse_skips: after a sparse tensor's first read, where Dynamo gives up on the frame, the
  breaks are none (info) where it is sparse for certain, and none certain (a warning) where
  it only may be (mechanism 4);
- skip_both_ways: breaks that skip the frame on both ways of an `if` on a trace-time value
  (the body and the `else`, every way of an `elif` chain): what follows the `if` is never
  traced (info), and it is a break where one way does not skip (mechanism 4);
- conditional_skips: a loop's first break under a configuration's `if` may not happen:
  the certain break after it still breaks where it does not (a warning), not info, and
  what follows the first in its branch is none (mechanism 4);
- nested_roots: functions compiled inside the function that defines them (`torch.compile(
  step)`, `@torch.compile(...)` on a nested `def`) are compile roots, and a method of an
  object the enclosing function makes resumes after a break (mechanism 3);
- appended_tensors: a list bound to `[]` that a loop fills with `append` holds tensors
  while every element appended is one: its `sum`, its elements and the names a loop over it
  binds are tensors; one filled with numbers is no tensor (mechanism 2);
- optimizer_steps: a training step compiled whole: `zero_grad()` and `step()` of a torch
  optimizer and `step()` of a learning-rate scheduler, made in `__init__` or at module level,
  are not traced; `step()` of a project object is (mechanism 4);
- scalar_indices: a local bound to a full reduction (`top = scores.argmax()`) is a 0-dim
  tensor as an index; not once rebound to a number (mechanism 4);
- data_objects: a named method of the object a parameter annotated with a project class
  holds (`features.first()`, `features: Jagged`) runs in the compiled code where the class's
  constructor takes tensors (mechanism 3);
- sequence_calls: packing a padded batch (`pack_padded_sequence`, imported by name) and the
  CTC loss (`F.ctc_loss`) are torch calls Dynamo does not trace (mechanism 4);
- stubless_overrides: `self._transform(x)` in a base class that neither defines nor assigns
  `_transform` runs a subclass's method, which receives the call's arguments (mechanism 2);
- appended_attributes: objects a constructor appends to a list on the instance
  (`self.filters.append(Clamp())`): a loop over the list calls each one's method (mechanism 3);
- skipped_libraries: a call into a library Dynamo skips whole (a tqdm progress bar a
  sampler's helper makes around its steps) (mechanism 4);
- vector_elements: a loop over a tensor of one dimension (`torch.where(mask)`'s index tensors
  through `zip`, `torch.arange(n)`) binds 0-dim tensors, each an index Dynamo must read; not a
  loop over a list of ints (mechanism 4);
- subclassed_managers: `with` on a project class deriving from `warnings.catch_warnings`
  (through another project class, or calling the base's `__enter__`) or from `torch.no_grad`,
  which Dynamo cannot enter: the frame is skipped at the `with` line; not a `catch_warnings`
  subclass whose own `__enter__` leaves the base's alone (mechanism 4);
- number_tensors: a size read from a tensor made of Python numbers (`g =
  torch.min(torch.as_tensor(group), torch.as_tensor(n))`, `torch.as_tensor(w) * 2`) is a
  number Dynamo's fake tensor keeps, not flagged; `int()` of one and a size read from data
  still are (mechanism 1);
- cached_properties: a `functools.cached_property` read through `self` in a method of a class
  that compiled code makes instances of (its own or an inherited property): the getter's
  `RLock` skips the frame (Python before 3.12), and the caller's frame with it; not for an
  object made in `__init__` (mechanism 4);
- breaking_constructors: a breaking method called on a local holding an object the function
  makes skips the caller's frame, but not where making the object breaks first: Dynamo does
  not resume with a half-made object (mechanism 1);
- resized_tensors: `resize_` of a buffer (an observer's statistic) and `resize_as_` of a
  local are tensor methods Dynamo does not trace; not a project class's `resize` (mechanism 4);
- size_comparisons: an untouched parameter of a compiled function compared with a size
  (`x.shape[1] - 1 < max_length`, `len(points) > n`) is a count, not a branch on a tensor;
  one compared with a tensor's sum still is (mechanism 1);
- leaked_leaves: a tensor compiled code makes a leaf (`.detach().requires_grad_()`) that
  outlives the function: kept on the object, in a dict on it, or read by a hook the function
  registers; not one only a nested function it calls reads (mechanism 4);
- eager_inits: an `nn.Module` made where it runs eagerly (in a function whose frame a break
  skips, or one whose own `__init__` breaks): Dynamo compiles its `__init__` as a frame of its
  own and skips it at `super().__init__()`, and each base's `__init__` that reaches; not a
  module made in traced code (before a break that splits a frame skipped later), nor an
  object that is no module (mechanism 4);
- lazy_inits: modules that initialise themselves on their first forward (a flag set, a scale
  measured): the breaks inside the initialisation happen on a user's first compiled call
  only, which the probes run on objects no call has touched (mechanism 4);
- compile_roots: what is compiled elsewhere in the tree (`torch.compile(f)` in another file,
  `torch._dynamo.optimize(...)(f)`, a decorator with options, a local instance's method) and,
  with `--probes`, what the probes return to be compiled;
- passed_classes: a class passed as a value (`predicted(x, Euler, sde)`, then
  `predictor(sde).update(x)`), bound by `functools.partial(predicted, predictor=Heun)`, or
  stored on an attribute from a constructor's argument
  (`self.corrector_class(self.sde).update(x)`): the methods of its instances are traced, and
  calling one that breaks on an object made in the frame skips it (mechanism 3);
- overloaded_returns: a method of what a function returns, known only from its return
  annotations: every `@overload` stub's (`-> Recorder`, `-> RecordedCall[torch.Tensor]`, a
  generic class named without its parameters) of a function a decorator written as a call
  replaces, and each member of a union (`-> Optional[Sampler]`) (mechanism 3);
- compiled_elements: `torch.compile(f)` in a comprehension compiles each function `f` takes:
  the elements of a literal, the values of a module-level dict another module defines
  (`for name, step in STEPS.items()`); not a function only called eagerly (mechanism 3);
- packed_arguments: tensors a call packs into `**options` (`gated(x, gate=g)`, read as
  `options["gate"]`), into `*terms` (`terms[0]`), and passed on through another function's
  own `**options`; a Python value packed so (`name="block"`) decides nothing (mechanism 2).

Each asserts the exact findings; where Dynamo can run the project, it confirms them.
- branched_properties: a property's getter reading the base's property through `super()`
  whose first use is in a branch that returns: the use past the `if` is a first one on the
  other path, and Dynamo skips the getter there too (mechanism 4);
- returned_holders: a function that breaks (inside a project function it calls) and then
  returns an object it made whose constructor stores a bound method of its own: it runs as a
  frame of its own, and Dynamo skips that frame at the `return`; not an object holding only
  values, nor where the function does not break (Dynamo inlines it) (mechanism 4);
- sliced_repeats: `found["splits"][1:] - found["splits"][:-1]` is an array (lists have no
  `-`), also where the dict was made empty and filled under an `if`: its
  `repeat_interleave` repeats are a tensor (mechanism 2);
- returned_masks: a boolean tensor a helper of another module returns (`torch.any(...)`,
  `torch.isfinite(x)`, masks joined by `|` and `~`) read as an index by its caller
  (mechanism 2);
- regex_matches: a regular-expression match's `groupdict()`, the match made by a pattern
  `re.compile` made at module level or in the function, or by `re.fullmatch`; not
  `match.group(...)`, nor a method of the same name on a project object (mechanism 4);
- numpy_truths: numpy results joined by `or` (`np.any(low != 0) or np.any(high != 255)`):
  Python reads the first one's truth, and a branch the value it picked (mechanism 4);
- formatted_asserts: an `assert` on a tensor's value whose message is made at run time (an
  f-string, a `%` format) breaks, in a loop skipping the frame; the same test with a constant
  message does not, nor does one on a shape (mechanism 4);
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from breaklint.rule import all_rules
from conftest import run_breaklint

PROJECTS = Path(__file__).parent / "projects"

EXPECTED = {
    "false_findings": [
        # After `if exact and is_compiling(): return`: traced only when `exact` is false.
        ("blocks/casting.py", 11, "BL102", "warning"),
        # `shifted(h, temb.sum())` and `shifted(h, 1)`: a tensor on one call only.
        ("blocks/scaling.py", 11, "BL102", "warning"),
    ],
    "rule_forms": [
        ("parts/bounds.py", 2, "BL304", "error"),  # `x[0, : counts[0]]`
        ("parts/bounds.py", 6, "BL302", "error"),  # `prior[mask] *= 0.0`, the caller's mask
        # `x[:, circular]`, a list of Python bools read as an index (not the write at 14)
        ("parts/bounds.py", 15, "BL302", "error"),
        ("parts/draws.py", 5, "BL508", "warning"),  # `self.generator` through `self.noise`
        ("parts/heads.py", 5, "BL301", "error"),
        ("parts/heads.py", 6, "BL203", "error"),  # a comprehension after `torch.nonzero`
        ("parts/heads.py", 11, "BL301", "error"),
        ("parts/heads.py", 12, "BL203", "error"),  # ...yielding `parts[i]`, a list's tensor
        ("parts/placement.py", 5, "BL507", "error"),  # `with torch.device("cpu"):`
        ("parts/placement.py", 10, "BL104", "error"),  # `hash(h) % 7`
        ("parts/settings.py", 11, "BL403", "warning"),  # `Settings(...)` runs `__post_init__`
    ],
    "tensor_flow": [
        ("model.py", 25, "BL304", "error"),  # `lengths_of` returns a tensor
        ("model.py", 29, "BL201", "error"),  # `mean, batch = stats(h)`: the mean is one
        ("model.py", 31, "BL201", "error"),  # a buffer registered in `__init__`
        ("model.py", 36, "BL304", "error"),  # an element of a list of tensors
        ("ops/dense.py", 16, "BL302", "error"),  # `index: torch.Tensor` given `selection.index`
        ("ops/dense.py", 22, "BL302", "error"),  # `h, keep = dense(x)`: `keep` is a mask
        # `edges: Edges`, an alias of a union imported from `ops/types.py`: maybe a tensor
        ("ops/edges.py", 10, "BL302", "warning"),
        # `types: Optional[Tensor]` stays a tensor where it is assigned an unknown value
        ("ops/edges.py", 15, "BL302", "error"),
        ("ops/fused.py", 6, "BL304", "error"),  # its only caller passes a tensor
        ("ops/fused.py", 32, "BL202", "error"),
        ("ops/fused.py", 32, "BL304", "error"),  # an element of `ends: tuple[Tensor, ...]`
        ("ops/gate.py", 10, "BL201", "error"),  # `Gate(torch.ones(()))` sets `self.floor`
        ("ops/steps.py", 6, "BL102", "error"),  # `h = shifted(h, whole(h.sum()))`: a cycle
    ],
    "scope_edges": [
        ("module/commons.py", 5, "BL401", "error"),  # through a local alias...
        ("module/commons.py", 10, "BL401", "error"),  # ...either way it goes
        ("module/commons.py", 15, "BL401", "error"),  # `functools.partial` on an attribute
        ("module/commons.py", 20, "BL401", "error"),  # a callable held in a dict
        ("module/functions.py", 7, "BL401", "error"),  # `forward` of `Clamp.apply`
        ("module/functions.py", 22, "BL401", "error"),  # `backward` of `Scale.apply`
        ("module/processors.py", 5, "BL401", "error"),  # reached only through `step`
        ("module/processors.py", 11, "BL401", "error"),  # `__call__` of an attribute
        ("module/registry.py", 6, "BL401", "error"),  # a module-level instance, imported...
        ("module/registry.py", 10, "BL401", "error"),  # ...and in its own module
    ],
    "held_objects": [
        ("parts/helpers.py", 6, "BL101", "error"),  # `Interpolation().interpolate(x)`
        ("parts/helpers.py", 14, "BL101", "error"),  # `helper = Helper(2); helper.run(h)`
        ("parts/helpers.py", 19, "BL101", "error"),  # `make_norm().apply(h)`: what it returns
        ("parts/ops.py", 5, "BL101", "error"),  # reached only through `Halving.shrink`
        # `self.strategy(h)`: `build` passes a `Halving` through `Block.__init__`; nobody
        # passes a `Doubling`, and `Halving.unused` is never called.
        ("parts/strategies.py", 8, "BL101", "error"),
        ("parts/strategies.py", 24, "BL101", "error"),  # `scaler: Scaler`: its `__call__`
        # `Interpolation().interpolate(x)` breaks inside: Dynamo cannot rebuild the method of
        # an object made inline and skips `Model.forward` there ("Reconstruction failure")...
        ("run.py", 20, "BL208", "error"),
        # ...so `helper.run(h)` on the local it made and `make_norm().apply(h)` skip nothing more
        ("run.py", 22, "BL208", "info"),
        ("run.py", 27, "BL208", "info"),
        ("run.py", 30, "BL101", "error"),  # `self.blend` in `Block.mix`: `Model`'s override
    ],
    "eager_frames": [
        ("blocks/flags.py", 12, "BL102", "error"),
        ("blocks/flags.py", 12, "BL202", "error"),
        # it reads `self`, a module (a warning: `keys` may not be a list)
        ("blocks/flags.py", 14, "BL205", "warning"),
        ("blocks/guarded.py", 7, "BL102", "error"),
        ("blocks/guarded.py", 7, "BL204", "error"),  # a break in a `try` body skips the frame
        ("blocks/guarded.py", 10, "BL205", "error"),  # it reads `F`, a torch module
        ("blocks/pick.py", 7, "BL205", "error"),  # before the break: the frame runs eagerly
        ("blocks/pick.py", 10, "BL102", "error"),
        ("blocks/pick.py", 10, "BL202", "error"),  # a break in a loop skips the frame
    ],
    "empty_rests": [
        # `relay` and `fill` run eagerly after `gradients`' `print`: no op in them, nor in
        # what follows the `print`; `relay_op` adds, and the rest of `gradients_op` has a graph
        ("steps/fill.py", 5, "BL523", "warning"),
        ("steps/grads.py", 6, "BL401", "error"),
        ("steps/grads.py", 12, "BL401", "error"),
    ],
    "partial_aliases": [
        ("utils/prints.py", 8, "BL403", "error"),  # `future_warning(...)`: `warnings.warn`
    ],
    "callee_breaks": [
        ("blocks/gen.py", 6, "BL206", "error"),  # `all(...)` of a generator that breaks...
        ("blocks/gen.py", 6, "BL101", "error"),
        ("blocks/gen.py", 7, "BL101", "info"),  # ...skips the frame: no break after it
        ("blocks/loops.py", 7, "BL202", "info"),  # `noisy(x)` in a loop: the frame is skipped
        ("blocks/loops.py", 8, "BL205", "error"),  # so its comprehension is skipped too
        ("blocks/loops.py", 9, "BL101", "info"),
        ("blocks/loops.py", 14, "BL202", "info"),  # `via` breaks only through `noisy`...
        ("blocks/loops.py", 15, "BL101", "warning"),  # ...a maybe: no error after it
        ("blocks/loops.py", 20, "BL204", "info"),  # `noisy(x)` in a `try` body: skipped too
        ("blocks/loops.py", 23, "BL101", "info"),
        ("blocks/loops.py", 29, "BL204", "info"),  # `via(x)` in a `try` body: a maybe...
        ("blocks/loops.py", 32, "BL205", "warning"),  # ...so its comprehension maybe skipped
        # A skip under `if slow:` leaves alone the comprehension in its `else` (no BL205 at 42)
        ("blocks/loops.py", 40, "BL202", "info"),
        ("blocks/noisy.py", 2, "BL401", "error"),
    ],
    "resumeless_blocks": [
        # Under `if self.quiet:` a configuration decides the skip, but what runs only in that
        # branch runs only where the frame is skipped: the comprehension there is skipped too,
        # and no break follows in the branch.
        ("blocks/flagged.py", 17, "BL207", "warning"),
        ("blocks/flagged.py", 17, "BL501", "warning"),
        ("blocks/flagged.py", 19, "BL203", "warning"),
        ("blocks/flagged.py", 20, "BL101", "info"),
        ("blocks/flagged.py", 25, "BL501", "error"),
        # `with lock:` under `if exclusive:`, true at the only call (`shared(h, True)`): its
        # body runs whenever the function does, so the skip is certain...
        ("blocks/flagged.py", 27, "BL507", "error"),
        ("blocks/flagged.py", 29, "BL507", "info"),  # ...skips what follows it there
        ("blocks/guarded.py", 10, "BL207", "error"),  # `warnings.simplefilter` in the block...
        ("blocks/guarded.py", 10, "BL501", "error"),
        ("blocks/guarded.py", 12, "BL205", "error"),  # ...skips the frame and its comprehension
        ("blocks/guarded.py", 18, "BL101", "error"),  # `with ignoring(...)`: contextlib.suppress
        ("blocks/guarded.py", 18, "BL207", "error"),
        ("blocks/guarded.py", 24, "BL101", "error"),  # under `torch.no_grad()`: it resumes
        ("blocks/guarded.py", 27, "BL101", "error"),  # after a block that holds no break
        ("blocks/stacked.py", 7, "BL101", "error"),  # before the block: a break of its own
        ("blocks/stacked.py", 9, "BL207", "error"),
        ("blocks/stacked.py", 9, "BL401", "error"),
        ("blocks/stacked.py", 11, "BL101", "info"),  # the frame is skipped at line 9
    ],
    "made_objects": [
        ("helpers/grid.py", 6, "BL101", "error"),
        ("helpers/makers.py", 6, "BL401", "error"),
        ("model.py", 26, "BL208", "error"),  # `Lookup().find(h)`: the frame is skipped here...
        ("model.py", 27, "BL208", "info"),  # ...so the next such call skips nothing
        ("model.py", 28, "BL101", "info"),
    ],
    "named_attributes": [
        # `getattr(self, "{}_reduction".format(kind))`, returned by `reduction_for`: the
        # subclass's `mean_reduction`
        ("blocks/reducers.py", 23, "BL101", "error"),
        ("model.py", 13, "BL101", "error"),  # `getattr(self, f"block{i}")(x)`: a `Loud`
        ("model.py", 24, "BL101", "error"),  # `getattr(self, "layer%d" % 1)(x)`
        ("model.py", 27, "BL101", "error"),  # `getattr(self, name + "_forward")(x)`
    ],
    "held_methods": [
        ("blocks/noisy.py", 2, "BL401", "error"),
        ("blocks/solve.py", 7, "BL209", "error"),  # `stepper` holds `self.euler`, read after
        ("blocks/solve.py", 7, "BL401", "error"),
        ("blocks/solve.py", 13, "BL209", "error"),  # the break inside `noisy`, at the call
        # (not 19: nothing holds the object after the break; not 25: `Settings` holds values)
        ("blocks/solve.py", 19, "BL401", "error"),
        ("blocks/solve.py", 25, "BL401", "error"),
        # `two_steps`: a break under `if x.dim() > 3:` may skip the frame holding `first`...
        ("blocks/solve.py", 32, "BL209", "warning"),
        ("blocks/solve.py", 32, "BL401", "warning"),
        # ...where it does not, Dynamo resumes after it and skips the frame at the next break,
        # holding `second` too
        ("blocks/solve.py", 34, "BL209", "warning"),
        # `Shifted("linear")` in the skipped `through_callee`: its inherited `__init__` runs
        # eagerly, a frame Dynamo skips at `super().__init__()` (BL211)
        ("blocks/steppers.py", 19, "BL211", "error"),
    ],
    "stdlib_objects": [
        ("model.py", 27, "BL501", "error"),  # a `ContextVar` imported from `state/`...
        ("model.py", 29, "BL501", "error"),
        ("model.py", 30, "BL501", "error"),  # ...a `threading.Lock` made in this module
        ("model.py", 32, "BL501", "error"),
        ("state/draws.py", 8, "BL501", "error"),  # a branch on a `random.Random` draw
        ("state/guard.py", 5, "BL501", "error"),  # `lock = Lock()` in the compiled code...
        ("state/guard.py", 6, "BL507", "error"),  # ...and `with lock:`
        ("state/holder.py", 12, "BL501", "error"),  # `self.var = ContextVar(...)` in `__init__`
        # Not `Switch.reset`'s `self.var.reset(token)`: its only caller, the wrapper `captured`
        # returns, passes what `set` returns while compiling, None (a local of the wrapper,
        # through `_collector`, an instance made in its module), so its `else` never runs.
    ],
    "stdlib_queues": [
        ("model.py", 28, "BL501", "error"),  # `bisect.bisect_left(EDGES, 2.0)`
        ("model.py", 30, "BL501", "error"),  # `heapq.heapify(sizes)`
        ("model.py", 32, "BL501", "error"),  # `self.pending.put(2)`: a `queue.Queue`...
        ("model.py", 33, "BL501", "error"),  # ...and its `get()`
        ("model.py", 34, "BL501", "error"),  # `self.done.set()`: a `threading.Event`
        ("model.py", 39, "BL507", "error"),  # `with self.cond:`: a `threading.Condition`
        ("steps/handoff.py", 5, "BL501", "error"),  # `handed = LifoQueue()`...
        ("steps/handoff.py", 7, "BL501", "error"),  # ...and `handed.empty()`
    ],
    "element_indices": [
        ("metrics/ranking.py", 5, "BL301", "error"),  # `torch.unique(...)`
        ("metrics/ranking.py", 8, "BL304", "error"),  # `table[groups[0]]`: counts, cumsum - 1
        ("metrics/ranking.py", 11, "BL304", "error"),  # `table[order[-1]]`: `torch.randperm`
        # (not `table[inverse]`: the inverse has the shape of `preds`)
        ("metrics/scores.py", 6, "BL304", "error"),  # `total[total == 0] = 1.0`, `total` 0-dim
    ],
    "generator_breaks": [
        ("streams/chunks.py", 5, "BL501", "error"),  # `time.time()`: the frame is given up...
        ("streams/chunks.py", 7, "BL401", "info"),  # ...so the `print` after it runs eagerly
        ("streams/chunks.py", 12, "BL501", "error"),  # in `clocked`, which `timed` calls...
        ("streams/chunks.py", 18, "BL401", "info"),  # ...before this `print`
    ],
    "partial_subclasses": [
        ("model.py", 16, "BL519", "error"),  # `bound(scaled, factor=2.0)`
        ("ops/layers.py", 9, "BL519", "error"),  # `tagged(...)`, a subclass of `bound`
        # (not `partial(scaled, factor=0.5)`, nor the calls of the instances made)
    ],
    "wrapped_contexts": [
        ("tools/caching.py", 7, "BL507", "warning"),  # `with self.context:` in `wrapper`
    ],
    "sorted_dicts": [
        ("model.py", 18, "BL106", "warning"),  # `sorted(parts.items())`, tensors made here
        ("parts/merge.py", 3, "BL106", "warning"),  # the same dict, passed to `merged`
        # (not `sorted(SCALES.items())`: numbers; nor the pairs sorted by `key=`)
    ],
    "called_wrappers": [
        # `Message(...)` in `effectful`'s `_fn`, which `_scale(x, name="w")` runs (not the
        # print in `logged`'s `inner`: only `main` calls `_shown`)
        ("effects/runtime.py", 24, "BL515", "error"),
    ],
    "skipped_torch_objects": [
        ("model.py", 24, "BL520", "error"),  # `SobolEngine(...)` made in `forward`
        ("model.py", 26, "BL520", "error"),  # `engine.draw(...)`, the local holding it
        ("noise/engines.py", 13, "BL520", "error"),  # `self._engine.draw(n)`, set in `__init__`
        # (not `Steady.draw`'s `self._engine.expand`: a tensor)
    ],
    "comprehended_lists": [
        # `int(level[0])`, `level = sizes[i]` of `sizes = [(size / 2 ** (i + 1)).ceil() ...]`,
        # in a loop
        ("ops/anchors.py", 10, "BL102", "error"),
        ("ops/anchors.py", 10, "BL202", "error"),
        # `int(levels[0][0])`, `levels = halves(size)` returning such a comprehension
        ("ops/levels.py", 8, "BL102", "error"),
        # (not `int(s) for s in (8, 4)`, nor `widths[0]`: numbers)
    ],
    "comprehended_dicts": [
        ("model.py", 17, "BL106", "warning"),  # `{f"p{i}": x * i for i in ...}`, tensors
        ("store/bank.py", 8, "BL106", "warning"),  # `Bank({...: torch.full(...) ...})`
        # (not `scales`: numbers; nor `named`, of what `pairs` holds)
    ],
    "forwarded_keywords": [
        # `float(ta)`, a tensor time that `Solver.advance` passes to `self.step`, which
        # `Euler` overrides
        ("noise.py", 9, "BL102", "error"),
        # `Euler(sde=sde, bm=bm)`, whose `__init__` passes `bm` on through `**kwargs` to
        # `Solver.__init__`, which sets `self.bm`: a `Brownian` that `checked` makes where
        # the parameter is None and returns in a tuple. Its `__call__` breaks inside the
        # method of an object `solve` makes:
        ("solvers/api.py", 14, "BL208", "warning"),
        # `scale=y.mean()` through `stepped(y, **options)` (not `limit=3`: a number)
        ("solvers/steps.py", 8, "BL201", "error"),
        # (not `Brownian.f`'s print: `self.sde.f(y)` holds the first item `checked` returns)
    ],
    "numpy_objects": [
        ("model.py", 20, "BL601", "error"),  # `self.rng.normal()`: `default_rng` in `__init__`
        ("noise/seeds.py", 6, "BL601", "error"),  # `npr.SeedSequence(...)` itself...
        ("noise/seeds.py", 7, "BL601", "error"),  # ...and its method `generate_state`
        ("noise/seeds.py", 9, "BL601", "error"),
        ("noise/seeds.py", 10, "BL601", "error"),  # `state.rand(4)` on a `RandomState`
        ("noise/warp.py", 6, "BL601", "error"),  # `np.interp` (not `grid.sum()`: an array)
    ],
    "object_scope": [
        ("flows/chain.py", 22, "BL202", "info"),  # `step.step(z)` in a loop breaks inside
        ("flows/layers.py", 11, "BL201", "error"),  # `self.flows[i].inverse(z)`: a `Shift`
        ("flows/layers.py", 18, "BL101", "error"),  # `for step in reversed(self.steps)`
        ("flows/layers.py", 28, "BL101", "error"),  # ...a `Halve` put in with `append`
        # `solver = solver_class(); solver.integrate(x)`: a breaking method of an object the
        # function makes, held in a local; Dynamo skips the frame there...
        ("run.py", 22, "BL208", "error"),
        ("run.py", 23, "BL208", "info"),  # ...so the next such call skips nothing
        # `stepper_class().advance(x)`: a breaking method of an object made in the call
        ("run.py", 39, "BL208", "error"),
        # `select` returns `Euler` or `Midpoint`: the inherited method and both overrides
        # (not `Heun.correct`, nor `Unused.inverse`: no caller makes one).
        ("solvers/methods.py", 6, "BL101", "error"),
        ("solvers/methods.py", 11, "BL101", "error"),
        ("solvers/methods.py", 16, "BL101", "error"),
        ("solvers/registry.py", 6, "BL101", "error"),  # `STEPPERS["forward"]`, made
        ("solvers/registry.py", 18, "BL101", "error"),  # `POSTS[0](h)` (not `Backward`)
    ],
    "local_objects": [
        # `solver = solver_class(Brownian()); solver.integrate(y, ts)`, `quiet = Quiet(); ...`:
        # methods of objects the function makes, which break through their callees: the
        # frame is skipped (not `shared.integrate`: a factory's object, made before).
        ("run.py", 16, "BL208", "warning"),
        ("run.py", 22, "BL208", "warning"),
        # `assert t0 <= t <= t1` in an untyped helper the solver passes tensor times to
        ("sde/interp.py", 2, "BL201", "error"),
        ("sde/interp.py", 7, "BL201", "error"),  # `assert not (dt < 0).any()`
        # `float(ta)` in `__call__` of the object on `self.bm`, which the constructor's caller
        # passes through the class a local holds
        ("sde/noise.py", 6, "BL102", "error"),
    ],
    "registry_objects": [
        # `SOLVERS[method](func, y0).integrate(t)`, through a local: the frame is skipped
        ("api.py", 17, "BL208", "error"),
        ("solvers/adaptive.py", 8, "BL201", "error"),  # `while now < t[-1]`
        ("solvers/base.py", 10, "BL201", "error"),  # inherited by `Euler` and `Midpoint`
        # (not `odeint_made`'s `solver.integrate(t)`: `MAKERS` holds a factory too)
    ],
    "parameter_objects": [
        # `learner.loss(ratio, advantage)` in the compiled `update`, `learner` what `main`
        # passes: a `Learner`
        ("agents/learner.py", 11, "BL101", "error"),
        ("agents/learner.py", 19, "BL102", "error"),  # `centred`, called as `score(x)`
        ("run.py", 11, "BL201", "error"),  # `if learner.too_far(kl):`, a tensor comparison
        # (not `choose`: nothing compiles it but the probes)
    ],
    "builtin_truths": [
        # `any(torch.isnan(t).any() for t in parts)`: BL206 at the call, BL201 at the element
        ("nets/checks.py", 5, "BL206", "error"),
        ("nets/checks.py", 5, "BL201", "error"),
        ("nets/checks.py", 9, "BL201", "error"),  # `all(mask)`, the mask a tensor
        # `x[i, : lengths[i]]` in a loop, `lengths[:, None]` above (not `x[:, :width]`)
        ("nets/pooling.py", 10, "BL202", "error"),
        ("nets/pooling.py", 10, "BL304", "error"),
    ],
    "comprehension_targets": [
        # `all(t0 < t1 for t0, t1 in zip(ts[:-1], ts[1:]))`: BL206 at the call, BL201 at the
        # element, `ts` a cumulative sum the caller passes
        ("sde/checks.py", 2, "BL206", "error"),
        ("sde/checks.py", 2, "BL201", "error"),
        ("sde/checks.py", 6, "BL102", "error"),  # `float(t1 - t0)` of rows of a `linspace`
        # (not `[n * 2 for n in shape]`: the sizes of `x.shape`)
    ],
    "scalar_annotations": [
        # `scale: float` given `x.abs().max()`, a tensor for certain: a warning, as for any
        # annotation that is not a tensor (not `top_k`'s `ratio`, what `repeat` returns)
        ("pool/select.py", 16, "BL201", "warning"),
    ],
    "nested_registries": [
        ("losses/samples.py", 7, "BL101", "error"),  # `_kernel`, through `partial`
        ("losses/samples.py", 11, "BL103", "error"),
    ],
    "input_helpers": [
        ("model.py", 9, "BL102", "error"),  # `float(std)`, `mean, std = moments(x)`
        ("model.py", 17, "BL102", "error"),  # `int(width * 10)`, `width = spread(x)`
    ],
    "base_calls": [
        ("layers/checked.py", 8, "BL201", "error"),  # `if y.isnan().any():`
        ("layers/prepped.py", 9, "BL102", "error"),  # `float(...)` in what `__call__` calls
    ],
    "attribute_stores": [
        ("model.py", 16, "BL402", "warning"),  # `self.attn(x)` in `Layer.forward`, flag unknown
    ],
    "self_references": [
        # `self._last.locate(t)`, `self._last = self` in `Tree.__init__`: the inherited method
        ("tree/intervals.py", 7, "BL102", "error"),
    ],
    "annotated_unions": [
        # `t0: Optional[Scalar] = 0.0`, `Scalar = Union[float, Tensor]` imported from another
        # module: a union that admits its default, filled with tensors by the caller.
        ("timing/spans.py", 9, "BL201", "error"),
        ("timing/spans.py", 11, "BL102", "error"),
        # (not `elif clip > 0.0`, past `if isinstance(clip, torch.Tensor)`: a Python number)
    ],
    "check_operands": [
        # (none after `torch.jit.is_tracing() and`, `torch.compiler.is_compiling() or`,
        # `not torch.compiler.is_compiling() and`, `exporting() and` (a helper false while
        # compiling), nor in `(torch.compiler.is_compiling() or print(x))` nested in `and`, nor
        # in the dead arms of `... if torch.jit.is_tracing() else ...`)
        ("model.py", 12, "BL102", "error"),  # `is_scripting() or`: the rest runs
        ("model.py", 15, "BL102", "error"),  # before `and is_compiling()`: runs first
    ],
    "tracing_helpers": [
        # (none under `if is_tracing():`, `not eager_mode()`, `exporting() and ...`,
        # `eager_mode() or ...`, nor in `onnx_sizes`, called only there: helpers returning
        # `torch._C._get_tracing_state()`, two levels deep, are False while Dynamo traces; nor
        # under `if not compiled(y):` and `if not fast_path():`, helpers true while compiling)
        # `on_host` returns the tracer's state on one path only: values decide its `if`
        ("model.py", 22, "BL301", "warning"),
        ("model.py", 23, "BL201", "error"),
    ],
    "constant_flags": [
        # (not `if strict and channels:`, nor `print` under `if strict:` in the helper it
        # passes `strict` to, nor `float` under `if not exact:`: the callers' constants rule
        # them out)
        ("shapes/matching.py", 20, "BL201", "error"),  # after `exact`, true at every call
        ("shapes/matching.py", 26, "BL201", "warning"),  # `on` is true at one call only
        # `if full: return x` runs only for an empty input: what follows is traced
        ("shapes/matching.py", 36, "BL302", "error"),
    ],
    "annotated_inputs": [
        # `sizes: torch.Tensor`, passed a compile root's unannotated input: a tensor for
        # certain, whatever the root's parameter is guessed to be
        ("layers/masks.py", 7, "BL202", "error"),
        ("layers/masks.py", 7, "BL304", "error"),
        # ...and in the unannotated helper that annotated parameter is passed on to
        ("layers/masks.py", 16, "BL304", "error"),
    ],
    "numpy_sizes": [
        ("ops/flat.py", 6, "BL601", "warning"),  # `np.prod(x.shape[1:])`: an array...
        ("ops/flat.py", 11, "BL601", "warning"),  # ...as `np.prod(rest)`, `*rest` of a shape
        ("ops/flat.py", 17, "BL601", "error"),  # `np.prod([height, width])`
        # (not `np.sqrt(x.shape[1])`: a float numpy folds)
    ],
    "numpy_text": [
        # `blocks[f"{depth:.0f}"]`: the frame skipped (a warning: a plain dict's `.get()` of
        # such a string traces)
        ("layers/keys.py", 6, "BL601", "warning"),
        ("layers/keys.py", 11, "BL601", "error"),  # `str(size)`
        # (not `f"{width}"` after `width = int(np.log2(...))`: a Python int)
        ("layers/keys.py", 21, "BL601", "error"),  # `repr(scale)`
        ("layers/keys.py", 27, "BL601", "warning"),  # `"count=%d" % count`
        ("layers/keys.py", 33, "BL601", "warning"),  # `"{} items".format(count)`
        ("layers/keys.py", 37, "BL601", "error"),  # `np.random.geometric`: no torch._numpy
        # ...which the resumed frame gets as an array it traces: `range(1, max(draws) + 2)`
        ("layers/keys.py", 39, "BL601", "error"),
    ],
    "sparse_tensors": [
        # `sparse`, which `ctx.sparse` passes on, used as sparse: `sparse._nnz()`
        ("ops/blocks.py", 6, "BL512", "warning"),
        ("ops/interp.py", 9, "BL509", "error"),  # `torch.sparse_coo_tensor(...)`...
        ("ops/interp.py", 11, "BL512", "error"),  # ...then its first read after the break
        ("ops/products.py", 9, "BL512", "warning"),  # `ctx.sparse = sparse` in `forward`
        # `dsmm`, also called with what `api.product` is given (not `dense_mat.shape[0]`)
        ("ops/products.py", 19, "BL512", "warning"),
    ],
    "super_properties": [
        # A property's getter that reads the base's property of its name through `super()`:
        # at the first use of the value, for a project base class and for a torch one.
        ("dists/tasks.py", 11, "BL514", "warning"),
        ("dists/tasks.py", 15, "BL514", "warning"),
        ("dists/tasks.py", 28, "BL514", "warning"),
    ],
    "typed_dicts": [
        ("model.py", 11, "BL515", "error"),  # `Message(...)`: `total=False`
        ("model.py", 12, "BL515", "error"),  # `kinds.Tagged(...)`: its own keys are optional
        ("model.py", 19, "BL515", "error"),  # `Note(...)`: a `NotRequired` key
    ],
    "eager_metaclasses": [
        ("model.py", 26, "BL202", "error"),  # `print` in the loop: `Looped.forward` is skipped
        ("model.py", 26, "BL401", "error"),
        # `NoisyStep(x.mean())`: its `__init__` breaks, so the call runs eagerly and Dynamo
        # compiles `Registered.__call__` as a frame (not for `NoisyStep(2.0)`: constants only)
        ("registry/meta.py", 6, "BL518", "warning"),
        # `steps.Shift(x.mean())` in the skipped frame: `Labelled` inherits `Counted.__call__`
        ("registry/meta.py", 12, "BL518", "warning"),
        ("registry/steps.py", 14, "BL401", "error"),
    ],
    "validated_distributions": [
        ("policy/heads.py", 7, "BL517", "error"),  # `Normal(..., validate_args=True)`
        # not line 21: `Independent` checks no parameter of its own
        ("policy/heads.py", 25, "BL517", "error"),  # `D.categorical.Categorical(...)`
        ("policy/heads.py", 33, "BL517", "error"),  # `set_default_validate_args(False)`
    ],
    "optional_bounds": [
        # `if max_length is None: max_length = length.max()`: a tensor where a caller passes
        # None, a Python int where another passes `x.size(1)`
        ("audio/commons.py", 7, "BL304", "warning"),
    ],
    "sparse_products": [
        ("layers/graph_conv.py", 12, "BL512", "warning"),  # `torch.spmm(adj, support)`...
        ("layers/graph_conv.py", 13, "BL401", "warning"),  # ...so the `print` after may not run
        # (not `torch.mm(weights, x)`)
    ],
    "none_defaults": [
        # `filename=None`, left to its default by the only caller: `sys._getframe` in the
        # `try` under `if filename is None:` skips the frame for certain...
        ("checks.py", 13, "BL204", "error"),
        ("checks.py", 13, "BL501", "error"),
        # ...so the `if` on a tensor and the warning after it run eagerly
        ("checks.py", 20, "BL201", "info"),
        ("checks.py", 21, "BL403", "info"),
    ],
    "sparse_skips": [
        ("ops/spread.py", 5, "BL509", "error"),
        ("ops/spread.py", 6, "BL512", "error"),  # the first read of the sparse `weights`...
        ("ops/spread.py", 7, "BL401", "info"),  # ...so the `print` after runs eagerly
        ("ops/spread.py", 12, "BL512", "warning"),  # `sparse`, used as only sparse ones are...
        ("ops/spread.py", 14, "BL401", "warning"),  # ...so the `print` breaks only where not
    ],
    "skip_both_ways": [
        # `gathered`: the `else` of the `elif` chain does not break, so the tensor test after
        # it is a break where that way runs (a warning)
        ("ops/gather.py", 5, "BL101", "warning"),
        ("ops/gather.py", 5, "BL202", "error"),
        ("ops/gather.py", 7, "BL101", "warning"),
        ("ops/gather.py", 10, "BL201", "warning"),
        # `pooled`: the `.item()` in the body or the one in the `else` skips the frame...
        ("ops/pooling.py", 10, "BL101", "warning"),
        ("ops/pooling.py", 10, "BL202", "error"),
        ("ops/pooling.py", 12, "BL101", "warning"),
        ("ops/pooling.py", 13, "BL201", "info"),  # ...so the tensor test after is none
        # `spans`: every way of the `elif` chain breaks...
        ("ops/pooling.py", 22, "BL101", "warning"),
        ("ops/pooling.py", 22, "BL202", "error"),
        ("ops/pooling.py", 24, "BL101", "warning"),
        ("ops/pooling.py", 26, "BL103", "warning"),
        ("ops/pooling.py", 27, "BL401", "info"),  # ...so the `print` after runs eagerly
    ],
    "conditional_skips": [
        # The loop skips the frame for certain: at the `print` if `early_stop` is set...
        ("decoding/greedy.py", 8, "BL202", "error"),
        ("decoding/greedy.py", 8, "BL401", "warning"),
        ("decoding/greedy.py", 9, "BL401", "info"),  # skipped at line 8 where it runs
        # ...else at the tensor test, which is a break where the `print` is not reached
        ("decoding/greedy.py", 11, "BL201", "warning"),
    ],
    "nested_roots": [
        # `torch.compile(step)` on a nested function: `scheduler.step`, an object the
        # enclosing function makes (Dynamo resumes after the break: no BL208)...
        ("sampling/schedulers.py", 10, "BL201", "error"),
        # ...and `@torch.compile(dynamic=False)` on one
        ("sampling/schedulers.py", 16, "BL102", "error"),
    ],
    "appended_tensors": [
        ("losses/quantile.py", 10, "BL201", "error"),  # `total = sum(losses)`
        # (not `sum(widths) > 1` at 15: the list holds numbers)
        ("losses/quantile.py", 21, "BL201", "error"),  # `for spread in spreads`
        ("losses/quantile.py", 21, "BL202", "error"),
    ],
    "optimizer_steps": [
        ("training/loop.py", 28, "BL510", "error"),  # `self.opt.zero_grad()`, an AdamW
        ("training/loop.py", 29, "BL509", "error"),  # `torch.autograd.grad`
        ("training/loop.py", 32, "BL510", "error"),  # `self.opt.step()`
        # (not `self.counter.step(loss)` at 33: a project object's method)
        ("training/loop.py", 39, "BL510", "error"),  # `sgd.zero_grad()`, made at module level
        ("training/loop.py", 40, "BL509", "error"),
        ("training/loop.py", 43, "BL510", "error"),  # `sgd.step()`
        ("training/loop.py", 45, "BL510", "error"),  # `schedule.step()`, a StepLR
    ],
    "scalar_indices": [
        ("boxes/ops.py", 3, "BL304", "error"),  # `top = scores.softmax(-1).argmax()`
        # (not `boxes[top]` at 5: `top = 0`)
    ],
    "data_objects": [
        ("batch/jagged.py", 11, "BL304", "error"),  # `self.values[:end]`, through `forward`
    ],
    "sequence_calls": [
        ("speech/losses.py", 6, "BL509", "error"),  # `pack_padded_sequence(...)`
        ("speech/losses.py", 7, "BL509", "error"),  # `F.ctc_loss(...)`
    ],
    "stubless_overrides": [
        # `self._transform(half)`: the base defines no `_transform`, so a subclass's runs and
        # gets `half`, a tensor: the mask made of it, and `int` of an element of it
        ("flows/ops.py", 7, "BL302", "error"),
        ("flows/ops.py", 12, "BL102", "error"),
    ],
    "appended_attributes": [
        ("decoding/filters.py", 12, "BL102", "error"),  # `Clamp.apply`, appended in `__init__`
        # told where the loop calls it (Dynamo 2.13 skips `Clamp.apply` alone)
        ("model.py", 22, "BL202", "info"),
    ],
    "skipped_libraries": [
        ("model.py", 20, "BL208", "warning"),  # `Sampler(...).run(...)`, made here
        ("sampling/loop.py", 10, "BL501", "error"),  # `tqdm(steps, ...)`
    ],
    "vector_elements": [
        ("mining/pairs.py", 6, "BL301", "error"),  # `torch.where(mask)`
        # `dist[a, p]` for `a, p` in `zip(anchors, positives)`: a break in a loop
        ("mining/pairs.py", 9, "BL202", "error"),
        ("mining/pairs.py", 9, "BL304", "error"),
        ("mining/pairs.py", 9, "BL304", "error"),
        # `e[i]` for `i` in `torch.arange(n)` (not for `i` in a list of ints, at 19)
        ("mining/pairs.py", 16, "BL202", "error"),
        ("mining/pairs.py", 16, "BL304", "error"),
    ],
    "compile_roots": [
        ("lib/codec.py", 19, "BL401", "error"),  # torch.compile(codec.encode)
        ("lib/ops.py", 2, "BL401", "error"),  # torch.compile(scale), imported
        ("lib/ops.py", 7, "BL401", "error"),  # torch._dynamo.optimize("eager")(shift)
        ("lib/ops.py", 12, "BL401", "error"),  # called by @torch.compile(fullgraph=False)
    ],
    "subclassed_managers": [
        # `with quiet.suppress_trace_warnings():`, its `__enter__` calling the base's
        ("layers/blocks.py", 13, "BL507", "error"),
        ("layers/blocks.py", 19, "BL507", "error"),  # `muted()`, a subclass of that one
        # (not `recorded()` at 25: its own `__enter__` never calls `catch_warnings`')
        ("layers/blocks.py", 31, "BL507", "error"),  # `frozen()`, a `torch.no_grad`
        ("utils/quiet.py", 9, "BL501", "error"),  # `warnings.simplefilter` in `__enter__`
    ],
    "breaking_constructors": [
        ("model.py", 20, "BL208", "error"),  # `Plain(y0)` then `solver.solve`; not at 14
        ("solvers/steps.py", 6, "BL201", "error"),  # in `Checked.__init__`
        ("solvers/steps.py", 11, "BL101", "error"),
        ("solvers/steps.py", 19, "BL101", "error"),
    ],
    "eager_inits": [
        ("layers/prepare.py", 10, "BL209", "error"),  # `prepare` holds a `Stepped`: skipped
        ("layers/prepare.py", 10, "BL401", "error"),
        # `offset_steps` is skipped at the loop's break, but its `Offset(1.0)` was traced before
        # the `.item()` split the frame: no BL211 in `Offset.__init__`
        ("layers/prepare.py", 16, "BL101", "error"),
        ("layers/prepare.py", 18, "BL202", "error"),
        ("layers/prepare.py", 18, "BL401", "error"),
        # `Stepped(0.5)` and `Scale(2.0)` in the skipped `prepare`: each `__init__` is skipped
        ("layers/scales.py", 7, "BL211", "error"),
        ("layers/scales.py", 13, "BL211", "error"),
        ("layers/scales.py", 22, "BL211", "error"),  # `Measured(x)` breaks in its `__init__`
        ("layers/scales.py", 23, "BL101", "error"),
    ],
    "lazy_inits": [
        ("model.py", 26, "BL401", "error"),  # `print` in the codebook's first-call `start`
        ("model.py", 40, "BL101", "warning"),  # `.item()` measuring the first input's scale
        ("model.py", 56, "BL403", "warning"),  # `warnings.warn` on every call after the first
    ],
    "cached_properties": [
        ("dists/truncated.py", 17, "BL511", "error"),  # `Truncated(loc, scale).log_prob(x)`
        ("dists/truncated.py", 22, "BL511", "error"),  # inherited by `Shifted`
        ("model.py", 17, "BL208", "error"),  # the callers' frames are skipped too
        ("model.py", 22, "BL208", "error"),  # (not `self.table.apply`: made in `__init__`)
    ],
    "number_tensors": [
        ("layers/stats.py", 19, "BL102", "error"),  # `int(torch.tensor(n))` reads its value
        ("layers/stats.py", 23, "BL304", "error"),  # `lengths.max()`, a size from data
    ],
    "leaked_leaves": [
        ("solvers/implicit.py", 15, "BL503", "error"),  # `self.state = h.detach()...`
        ("solvers/implicit.py", 27, "BL503", "error"),  # `self.saved["h"] = leaf`
        ("solvers/implicit.py", 34, "BL503", "error"),  # read by the hook `adjoint`
        ("solvers/implicit.py", 38, "BL509", "error"),
    ],
    "resized_tensors": [
        ("quant/observer.py", 14, "BL509", "error"),  # `self.scale.resize_(s.shape)`
        ("quant/observer.py", 20, "BL509", "error"),  # `y.resize_as_(other)`
    ],
    "size_comparisons": [
        ("decoding/steps.py", 20, "BL201", "error"),  # `x.numel() > budget.sum()`
    ],
    "script_roots": [
        ("infer/utils.py", 2, "BL304", "error"),  # `x[:, :n]`, the tensor `infer/run.py` passes
        ("lib/spline.py", 2, "BL401", "error"),  # through `from .spline import *`
        ("lib/utils.py", 2, "BL401", "error"),  # through `from .utils import norm`
        # (not `head` at 5: `apps/export.py` imports `model` from its own folder)
        ("models/model.py", 12, "BL101", "error"),
        ("train/utils.py", 6, "BL102", "error"),  # `norm` of `train/utils.py`, not `infer`'s
    ],
    "compiled_elements": [
        ("steps/ops.py", 5, "BL102", "error"),  # `scale`, of `(ops.scale, ops.shift)`
        ("steps/ops.py", 9, "BL201", "error"),  # `shift`
        ("steps/ops.py", 15, "BL401", "error"),  # `clip`, a value of `STEPS`
        ("steps/ops.py", 20, "BL101", "error"),  # `centre`
        # (not `untouched`, called eagerly)
    ],
    "packed_arguments": [
        ("layers/packed.py", 3, "BL201", "error"),  # `gate = options["gate"]`, a tensor
        ("layers/packed.py", 10, "BL102", "error"),  # `first = terms[0]`
        ("layers/packed.py", 22, "BL102", "error"),  # `bound`, through `passed_on`'s `**options`
        # (not `if name:` at 15, `name="block"`)
    ],
    "receiver_kinds": [
        # `second.view(n)`, a method of a tensor given a 0-dim tensor (a warning: `second`,
        # of what a project method returns, is not known for a tensor); not
        # `backend.reshape(t, ...)` of the object `get_backend` is annotated to return, a
        # module-level instance's `reshape`, `backend: Backend`'s `split`, `self.reshape`,
        # nor `Modulation.split`
        ("model.py", 26, "BL304", "warning"),
    ],
    "passed_classes": [
        # `Euler.update`, `Euler` passed to `predicted` as `predictor`
        ("sampling/predictors.py", 14, "BL102", "error"),
        # `Langevin.update`, `Langevin` stored by `Sampler.__init__` as `corrector_class`
        ("sampling/predictors.py", 20, "BL201", "error"),
        # `Heun.update`, `Heun` bound to `predictor` by `functools.partial(predicted, ...)`
        ("sampling/predictors.py", 27, "BL101", "error"),
        ("sampling/steps.py", 8, "BL208", "error"),  # `stepper.update(x)`, `stepper` made here
        ("sampling/steps.py", 17, "BL208", "error"),  # `self.corrector_class(...).update(x)`
    ],
    "branched_properties": [
        # `mean = super().mean`: its first use in the `if` that returns, and the one past it
        ("dists/tasks.py", 13, "BL514", "warning"),
        ("dists/tasks.py", 14, "BL514", "warning"),
    ],
    "overloaded_returns": [
        # `record(double, scale=0.5).run(x)`: `RecordedCall.run`, by the second `@overload`
        # stub's `-> RecordedCall[torch.Tensor]`
        ("effects/messengers.py", 28, "BL201", "error"),
        # `sampler(3).draw(x)`: `Sampler.draw`, by `-> Optional[Sampler]`
        ("effects/messengers.py", 38, "BL101", "error"),
    ],
    "returned_holders": [
        ("solvers/checks.py", 5, "BL201", "error"),  # in `is_positive`: `prepare` breaks there
        # `return stepper, x * 2` after that break, `Stepper` storing `self.step = self.euler`;
        # not `prepare_plain` (`Plain` holds values), nor `prepare_unchecked` (no break)
        ("solvers/checks.py", 14, "BL209", "error"),
    ],
    "returned_masks": [
        # `anchors[keep]`, `positives[keep]`: `kept | ~found`, `found` a `torch.any(...)`
        ("model.py", 15, "BL302", "error"),
        ("model.py", 16, "BL302", "error"),
        ("model.py", 18, "BL302", "error"),  # `positives[near]`, `near` a `torch.any(...)`
        ("model.py", 20, "BL302", "error"),  # `anchors[rows]`, `rows` a `torch.isfinite(x)`
        ("pairs/masks.py", 11, "BL301", "error"),
        ("pairs/masks.py", 11, "BL302", "error"),
        ("pairs/masks.py", 11, "BL302", "error"),
        ("pairs/masks.py", 11, "BL302", "error"),
    ],
    "regex_matches": [
        ("versions/parse.py", 8, "BL501", "error"),  # `SEMVER.match(version)`, module level
        ("versions/parse.py", 15, "BL501", "error"),  # `pattern.search(...)`, a local pattern
        ("versions/parse.py", 20, "BL501", "error"),  # `re.fullmatch(...)`
    ],
    "numpy_truths": [
        # `incorrect_bounds = np.any(space.low != 0) or np.any(space.high != 255)`
        ("spaces/checks.py", 7, "BL601", "error"),
        # `if check_bounds and incorrect_bounds:`, after a trace-time test
        ("spaces/checks.py", 8, "BL601", "warning"),
    ],
    "formatted_asserts": [
        # `assert data_range[0] <= t.min(), f"..."` in a loop over the tensors
        ("checks/inputs.py", 9, "BL201", "error"),
        ("checks/inputs.py", 9, "BL202", "error"),
        # `assert x.min() > 0, "%s must be positive" % name`; not `assert ..., "constant"`
        ("checks/inputs.py", 17, "BL201", "error"),
    ],
    "sliced_repeats": [
        # `counts = found["splits"][1:] - found["splits"][:-1]`, `found` made as `{}`
        ("graphs/transform.py", 6, "BL303", "error"),
    ],
}


def findings(project: str, tmp_path: Path, *options: str) -> list[tuple[str, int, str, str]]:
    root = PROJECTS / project
    done = run_breaklint(
        "--isolated", "--no-cache", "--output-format", "json", *options, str(root), cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr
    return [
        (Path(f["path"]).relative_to(root).as_posix(), f["line"], f["code"], f["severity"])
        for f in json.loads(done.stdout)["findings"]
    ]


def expected(project: str) -> list[tuple[str, int, str, str]]:
    """The project's findings on this Python: from 3.12 on, comprehensions are inlined into
    their function (PEP 709) and have no frame of their own to skip (no BL205)."""
    inlined = sys.version_info >= (3, 12)
    if inlined and project == "cached_properties":
        pytest.skip("`functools.cached_property` has no lock from Python 3.12 on")
    return [f for f in EXPECTED[project] if not (inlined and f[2] in ("BL205", "BL523"))]


@pytest.mark.parametrize("project", sorted(EXPECTED))
def test_exact_findings(project: str, tmp_path: Path) -> None:
    assert findings(project, tmp_path) == expected(project)


@pytest.mark.parametrize("project", sorted(EXPECTED))
def test_one_worker_finds_the_same(project: str, tmp_path: Path) -> None:
    assert findings(project, tmp_path, "--jobs", "1") == expected(project)


@pytest.mark.parametrize("scope", ["compiled", "all"])
def test_the_projects_as_one_tree_find_what_each_finds_alone(scope: str, tmp_path: Path) -> None:
    # All the projects linted in one run (`breaklint tests/projects`): several script roots
    # holding same-named modules (`model.py`, `run.py`, `probes/probes.py`) are modules of
    # their own, each import resolved from its importer, so nothing is lost or changed.
    def linted(*paths: Path) -> list[dict[str, object]]:
        done = run_breaklint(
            *("--isolated", "--no-cache", "--output-format", "json", "--scope", scope),
            *map(str, paths),
            cwd=tmp_path,
        )
        assert done.returncode in (0, 1), done.stderr
        found: list[dict[str, object]] = json.loads(done.stdout)["findings"]
        return found

    alone = [f for project in sorted(PROJECTS.iterdir()) for f in linted(project)]
    key = json.dumps
    assert sorted(map(key, linted(PROJECTS))) == sorted(map(key, alone))


def test_storing_an_object_on_an_attribute_calls_nothing_of_it(tmp_path: Path) -> None:
    # With every function in scope, `Encoder.__init__` builds layers in a loop: a layer's
    # `__init__` stores an `Attn` whose `forward` breaks, which storing it does not run.
    assert findings("attribute_stores", tmp_path, "--scope", "all") == expected("attribute_stores")


def test_a_file_linted_alone_knows_only_its_own_calls(tmp_path: Path) -> None:
    # Without its caller, `fused`'s parameter may hold anything: nothing is certain there.
    root = PROJECTS / "tensor_flow"
    done = run_breaklint(
        "--isolated", "--no-cache", "--output-format", "json", str(root / "ops"), cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["findings"] == []


def probed_report(root: Path, probes: Path, tmp_path: Path) -> dict:
    """The JSON report of the project at `root` linted with `probes`, which find breaks."""
    pytest.importorskip("torch", reason="the probes run under Dynamo: needs torch")
    done = run_breaklint(
        *("--isolated", "--no-cache", "--output-format", "json", "--probes", str(probes)),
        str(root),
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


def probed_findings(project: str, tmp_path: Path) -> list[tuple[str, int, str, str]]:
    """The findings of a project linted with its `probes/probes.py`, with their statuses."""
    root = PROJECTS / project
    return [
        (Path(f["path"]).relative_to(root).as_posix(), f["line"], f["code"], f["status"])
        for f in probed_report(root, root / "probes" / "probes.py", tmp_path)["findings"]
    ]


def test_dynamo_skips_the_init_of_a_module_made_where_it_runs_eagerly(tmp_path: Path) -> None:
    assert probed_findings("eager_inits", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["eager_inits"]
    ]


def test_what_the_probes_pass_decides_the_roots_parameters(tmp_path: Path) -> None:
    # Every probe passes `Agent.update` a `Memory` and two Python ints: `memory.sample`
    # reaches `random.sample` (a break found statically, not only by Dynamo), and `updates`
    # is no tensor (no BL201 on line 12, which Dynamo does not reproduce). `shift` is given a
    # tensor by one probe and a number by the other: its `offset` stays a maybe.
    assert probed_findings("probed_arguments", tmp_path) == [
        ("memory.py", 11, "BL501", "confirmed"),
        ("memory.py", 12, "BL910", "confirmed"),
        ("ops.py", 2, "BL201", "confirmed"),
    ]


def test_the_probes_see_the_breaks_of_a_first_call_that_initialises(tmp_path: Path) -> None:
    # The compiled call runs first, on objects no call has touched, and again: the first
    # initialises (and breaks there), the second fails the flag's guard once and compiles the
    # initialised path (which breaks in `Smoothed`'s `else`). The eager run is on objects built
    # again: had it run first on the compiled call's objects, the first two findings would be
    # not reproduced.
    root = PROJECTS / "lazy_inits"
    report = probed_report(root, root / "probes" / "probes.py", tmp_path)
    assert [(f["line"], f["code"], f["status"], f["later_call"]) for f in report["findings"]] == [
        (26, "BL401", "confirmed", False),
        (40, "BL101", "confirmed", False),
        (56, "BL403", "confirmed", True),
    ]
    found = {
        p["name"]: (
            p["graphs"],
            [(b["line"], b["function"], b["later_call"]) for b in p["breaks_by_cost"]],
            [(g["first"], g["failures"], g["per_value"]) for g in p["recompiles"]["guards"]],
        )
        for p in report["probes"]
    }
    assert found == {
        "probe_codebook": (
            2,
            [(26, "Codebook.start", False)],
            [("self.initted == False", 1, False)],
        ),
        "probe_scaled": (2, [(40, "Scaled.forward", False)], [("self.scale is None", 1, False)]),
        "probe_smoothed": (1, [(56, "Smoothed.forward", True)], [("self.mean is None", 1, False)]),
    }


def test_modules_found_from_the_folders_the_probes_put_on_sys_path(tmp_path: Path) -> None:
    # path_folders: the probes put src/model and src/tools (both packages) on `sys.path` and
    # compile `run` of `model` (src/model/model.py, not the package); its modules import each
    # other by bare names (`from steps import ...`, `from lengths import ...`), so the static
    # scope reaches `count` two folders away, where Dynamo breaks. Without the folders the
    # static phase reaches nothing and the break is the probes' alone (BL900).
    assert probed_findings("path_folders", tmp_path) == [
        ("src/tools/lengths.py", 5, "BL102", "confirmed"),
    ]


def test_dynamo_breaks_where_an_annotated_tensor_holds_a_roots_input(tmp_path: Path) -> None:
    assert probed_findings("annotated_inputs", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["annotated_inputs"]
    ]


def test_dynamo_breaks_in_each_callable_a_nested_registry_holds() -> None:
    # Linted from the project's folder, as a library's harness lints its package: the
    # probes' `SamplesLoss.forward` reaches the routines only through the nested literals.
    pytest.importorskip("torch", reason="the probes run under Dynamo: needs torch")
    root = PROJECTS / "nested_registries"
    done = run_breaklint(
        *("--isolated", "--no-cache", "--output-format", "json"),
        *("--probes", "probes/probes.py", "losses"),
        cwd=root,
    )
    assert done.returncode == 1, done.stderr
    found = [
        (f["path"], f["line"], f["code"], f["status"]) for f in json.loads(done.stdout)["findings"]
    ]
    assert found == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["nested_registries"]
    ]


def test_dynamo_breaks_where_numpy_multiplies_a_shape_into_a_size(tmp_path: Path) -> None:
    assert probed_findings("numpy_sizes", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["numpy_sizes"]
    ]


def test_dynamo_breaks_where_text_is_made_of_a_numpy_result(tmp_path: Path) -> None:
    assert probed_findings("numpy_text", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["numpy_text"]
    ]


def test_dynamo_skips_each_frame_where_a_sparse_tensor_is_first_read(tmp_path: Path) -> None:
    assert probed_findings("sparse_tensors", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["sparse_tensors"]
    ]


def test_dynamo_skips_a_getter_where_the_base_property_it_read_is_used(tmp_path: Path) -> None:
    # Dynamo also fails to rebuild the bound method `dist.centred` of the torch subclass in
    # `FoldedScore.forward` after the skip inside it: a break no static rule reports (BL208
    # knows project methods that break, not this skip), found by the probes alone.
    assert probed_findings("super_properties", tmp_path) == [
        *((path, line, code, "confirmed") for path, line, code, _ in EXPECTED["super_properties"]),
        ("model.py", 21, "BL900", "confirmed"),
    ]


def test_dynamo_breaks_where_an_element_of_a_list_comprehension_of_tensors_is_read(
    tmp_path: Path,
) -> None:
    assert probed_findings("comprehended_lists", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["comprehended_lists"]
    ]


def test_dynamo_breaks_where_a_typed_dict_with_optional_keys_is_made(tmp_path: Path) -> None:
    assert probed_findings("typed_dicts", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["typed_dicts"]
    ]


def test_dynamo_breaks_in_a_metaclass_call_where_the_object_is_made_eagerly(
    tmp_path: Path,
) -> None:
    root = PROJECTS / "eager_metaclasses"
    report = probed_report(root, root / "probes" / "probes.py", tmp_path)
    assert [
        (Path(f["path"]).relative_to(root).as_posix(), f["line"], f["code"], f["status"])
        for f in report["findings"]
    ] == [(path, line, code, "confirmed") for path, line, code, _ in EXPECTED["eager_metaclasses"]]
    # Made where Dynamo traces it, or from constants only: no break in the metaclass.
    breaks = {
        p["name"]: sorted(Path(b["path"]).name for b in p["breaks_by_cost"])
        for p in report["probes"]
    }
    assert breaks["probe_clean"] == []
    assert breaks["probe_constant"] == ["steps.py"]


def test_dynamo_breaks_where_a_distribution_validates_and_nowhere_else(tmp_path: Path) -> None:
    root = PROJECTS / "validated_distributions"
    report = probed_report(root, root / "probes" / "probes.py", tmp_path)
    assert [
        (Path(f["path"]).relative_to(root).as_posix(), f["line"], f["code"], f["status"])
        for f in report["findings"]
    ] == [
        (path, line, code, "confirmed")
        for path, line, code, _ in EXPECTED["validated_distributions"]
    ]
    # Without `validate_args=True` (or with `Independent`'s), `log_prob` and all: one graph.
    unchecked = [p for p in report["probes"] if p["name"] == "probe_unchecked"]
    assert [(p["graphs"], p["breaks"], p["frames_skipped"]) for p in unchecked] == [(1, 0, 0)]


def test_dynamo_breaks_where_an_if_makes_a_size_a_tensor(tmp_path: Path) -> None:
    assert probed_findings("optional_bounds", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["optional_bounds"]
    ]


def test_dynamo_breaks_on_the_tensors_a_list_is_filled_with(tmp_path: Path) -> None:
    assert probed_findings("appended_tensors", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["appended_tensors"]
    ]


def test_dynamo_breaks_only_at_the_tensor_method_not_at_methods_named_like_one(
    tmp_path: Path,
) -> None:
    assert probed_findings("receiver_kinds", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["receiver_kinds"]
    ]


def test_dynamo_breaks_at_the_optimizer_and_scheduler_calls(tmp_path: Path) -> None:
    assert probed_findings("optimizer_steps", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["optimizer_steps"]
    ]


def test_dynamo_breaks_where_a_0_dim_tensor_bound_to_a_local_indexes(tmp_path: Path) -> None:
    assert probed_findings("scalar_indices", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["scalar_indices"]
    ]


def test_dynamo_breaks_in_the_methods_of_what_annotated_functions_return(tmp_path: Path) -> None:
    # `RecordedCall` is made where Dynamo traces (the handler the decorator returns), so the
    # break in its `run` skips `recorded`'s frame; BL208 leaves out objects a function returns
    # (one may be made before the compiled code runs), so only the probe reports it.
    assert probed_findings("overloaded_returns", tmp_path) == [
        *(
            (path, line, code, "confirmed")
            for path, line, code, _ in EXPECTED["overloaded_returns"]
        ),
        ("run.py", 12, "BL901", "confirmed"),
    ]


def test_dynamo_breaks_in_the_methods_of_the_classes_passed_as_values(tmp_path: Path) -> None:
    assert probed_findings("passed_classes", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["passed_classes"]
    ]


def test_dynamo_breaks_in_each_function_compiled_in_a_comprehension(tmp_path: Path) -> None:
    assert probed_findings("compiled_elements", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["compiled_elements"]
    ]


def test_dynamo_breaks_on_the_tensors_packed_into_star_arguments(tmp_path: Path) -> None:
    assert probed_findings("packed_arguments", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["packed_arguments"]
    ]


def test_dynamo_breaks_in_the_subclass_methods_a_base_leaves_undefined(tmp_path: Path) -> None:
    assert probed_findings("stubless_overrides", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["stubless_overrides"]
    ]


def test_dynamo_breaks_in_the_methods_of_objects_appended_to_an_attribute(
    tmp_path: Path,
) -> None:
    assert probed_findings("appended_attributes", tmp_path) == [
        ("decoding/filters.py", 12, "BL102", "confirmed"),
        ("model.py", 22, "BL202", "not-reproduced"),
    ]


def test_dynamo_breaks_where_a_skipped_library_is_called(tmp_path: Path) -> None:
    # Making the bar breaks; iterating it then skips `Sampler.run` (Dynamo cannot inline
    # tqdm's `__iter__`).
    pytest.importorskip("tqdm", reason="the probe's sampler imports tqdm")
    assert probed_findings("skipped_libraries", tmp_path) == [
        ("model.py", 20, "BL208", "confirmed"),
        ("sampling/loop.py", 10, "BL501", "confirmed"),
        ("sampling/loop.py", 13, "BL901", "confirmed"),
    ]


def test_dynamo_breaks_where_an_element_of_a_vector_indexes(tmp_path: Path) -> None:
    # Each loop's frame is skipped at its index (BL901 where Dynamo tells no break of its own).
    assert probed_findings("vector_elements", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["vector_elements"]
    ]


def test_dynamo_breaks_in_the_methods_of_an_annotated_data_object(tmp_path: Path) -> None:
    assert probed_findings("data_objects", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["data_objects"]
    ]


def test_dynamo_breaks_at_packing_and_the_ctc_loss(tmp_path: Path) -> None:
    assert probed_findings("sequence_calls", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["sequence_calls"]
    ]


def test_dynamo_skips_the_frames_that_enter_a_subclassed_manager(tmp_path: Path) -> None:
    # The skipped frame's `__enter__` is compiled on its own and breaks at its call of the
    # base's (`catch_warnings.__enter__`): Dynamo's traceback leaves that frame out, and the
    # break is put back on it (line 8), a break no static rule reports.
    assert probed_findings("subclassed_managers", tmp_path) == [
        *(
            (path, line, code, "confirmed")
            for path, line, code, _ in EXPECTED["subclassed_managers"][:-1]
        ),
        ("utils/quiet.py", 8, "BL900", "confirmed"),
        ("utils/quiet.py", 9, "BL501", "confirmed"),
    ]


def test_dynamo_skips_at_a_certain_break_after_one_that_may_not_happen(tmp_path: Path) -> None:
    # `early_stop` keeps its default: the `print` is never reached, the tensor test breaks.
    assert probed_findings("conditional_skips", tmp_path) == [
        ("decoding/greedy.py", 8, "BL202", "not-reached"),
        ("decoding/greedy.py", 8, "BL401", "not-reached"),
        ("decoding/greedy.py", 9, "BL401", "not-reached"),
        ("decoding/greedy.py", 11, "BL201", "confirmed"),
    ]


def test_dynamo_never_traces_what_follows_the_first_read_of_a_sparse_tensor(
    tmp_path: Path,
) -> None:
    # Both `print`s run eagerly: each frame is skipped at its sparse tensor's first read. The
    # forward's own read of the sparse input it passes on (model.py:15) is no static finding:
    # a compile root's input is taken for a dense tensor.
    assert probed_findings("sparse_skips", tmp_path) == [
        ("model.py", 15, "BL901", "confirmed"),
        ("ops/spread.py", 5, "BL509", "confirmed"),
        ("ops/spread.py", 6, "BL512", "confirmed"),
        ("ops/spread.py", 7, "BL401", "not-reproduced"),
        ("ops/spread.py", 12, "BL512", "confirmed"),
        ("ops/spread.py", 14, "BL401", "not-reproduced"),
    ]


def test_dynamo_skips_the_frame_where_what_spmm_multiplies_is_sparse(tmp_path: Path) -> None:
    # The caller's frame is skipped too, where it first reads the sparse tensor to pass it on
    # (not flagged: a parameter is sparse from its callers, not from its callees); the `print`
    # after the skip runs eagerly.
    assert probed_findings("sparse_products", tmp_path) == [
        ("layers/graph_conv.py", 12, "BL512", "confirmed"),
        ("layers/graph_conv.py", 13, "BL401", "not-reproduced"),
        ("model.py", 13, "BL901", "confirmed"),
    ]


def test_dynamo_never_traces_what_follows_an_if_whose_ways_all_skip(tmp_path: Path) -> None:
    # 2-D values: the `elif`'s `.item()` skips `gathered` and `spans`, the `else`'s skips
    # `pooled`, at the first iteration: the tensor tests and the `print` after the `if` are
    # never traced (in `gathered` too, where only 1-D values would reach its test traced).
    assert probed_findings("skip_both_ways", tmp_path) == [
        ("ops/gather.py", 5, "BL101", "not-reached"),
        ("ops/gather.py", 5, "BL202", "not-reached"),
        ("ops/gather.py", 7, "BL101", "confirmed"),
        ("ops/gather.py", 10, "BL201", "not-reproduced"),
        ("ops/pooling.py", 10, "BL101", "not-reached"),
        ("ops/pooling.py", 10, "BL202", "not-reached"),
        ("ops/pooling.py", 12, "BL101", "confirmed"),
        ("ops/pooling.py", 13, "BL201", "not-reproduced"),
        ("ops/pooling.py", 22, "BL101", "not-reached"),
        ("ops/pooling.py", 22, "BL202", "not-reached"),
        ("ops/pooling.py", 24, "BL101", "confirmed"),
        ("ops/pooling.py", 26, "BL103", "not-reached"),
        ("ops/pooling.py", 27, "BL401", "not-reproduced"),
    ]


def test_dynamo_confirms_every_rule_form(tmp_path: Path) -> None:
    # Each form breaks under Dynamo where it is flagged, and nowhere else (no BL900: no break
    # the static phase missed).
    assert probed_findings("rule_forms", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["rule_forms"]
    ]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 inlines comprehensions")
def test_dynamo_skips_the_comprehension_frames_of_a_skipped_frame(tmp_path: Path) -> None:
    # Each comprehension flagged is skipped by Dynamo as a frame of its own; the one that reads
    # no tensor and the one over a `range` are not (no BL900).
    assert probed_findings("eager_frames", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["eager_frames"]
    ]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 inlines comprehensions")
def test_dynamo_skips_the_comprehension_of_a_function_an_empty_rest_calls(tmp_path: Path) -> None:
    # Each finding confirmed, and no break Dynamo meets beyond them: not `fill_op`'s
    # comprehension, inlined in the rest of `gradients_op`, which has a graph.
    assert probed_findings("empty_rests", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["empty_rests"]
    ]


def test_dynamo_breaks_where_a_partial_of_warnings_warn_is_called(tmp_path: Path) -> None:
    assert probed_findings("partial_aliases", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["partial_aliases"]
    ]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 inlines comprehensions")
def test_dynamo_skips_the_frames_that_call_a_breaking_function(tmp_path: Path) -> None:
    # The errors break (or skip a frame) under Dynamo; the lines after a skip do not, the
    # warning after a maybe included (`via` breaks on every call: a summary cannot see that
    # inside it); no break is missed (no BL900).
    statuses = {"error": "confirmed", "warning": "not-reproduced", "info": "not-reproduced"}
    # `gen.py:7`: the frame runs eagerly before Dynamo reaches it; `loops.py:40`: the probe's
    # input takes the `else`
    reached = {("blocks/gen.py", 7), ("blocks/loops.py", 40)}
    skipped = {("blocks/loops.py", 32)}  # `via` breaks on every call: its comprehension skips
    assert probed_findings("callee_breaks", tmp_path) == [
        (
            path,
            line,
            code,
            "not-reached"
            if (path, line) in reached
            else "confirmed"
            if (path, line) in skipped
            else statuses[severity],
        )
        for path, line, code, severity in EXPECTED["callee_breaks"]
    ]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 inlines comprehensions")
def test_dynamo_skips_the_frames_that_break_inside_a_resumeless_with_block(
    tmp_path: Path,
) -> None:
    # Every error and warning breaks or skips a frame under Dynamo (the skip is reported at the
    # break in the block; the probe's configuration takes the branches); the lines after a
    # skip do not break; no break is missed (no BL900).
    statuses = {"error": "confirmed", "warning": "confirmed", "info": "not-reproduced"}
    assert probed_findings("resumeless_blocks", tmp_path) == [
        (path, line, code, statuses[severity])
        for path, line, code, severity in EXPECTED["resumeless_blocks"]
    ]


def test_dynamo_skips_the_frame_that_calls_a_breaking_method_of_a_new_object(
    tmp_path: Path,
) -> None:
    # The errors break or skip a frame (the skip at the call, "Reconstruction failure"); the
    # lines after it do not; `self.lookup.find(x)` in `Held.forward` breaks only in the
    # method, and no break is missed (no BL900).
    statuses = {"error": "confirmed", "info": "not-reproduced"}
    assert probed_findings("made_objects", tmp_path) == [
        (path, line, code, statuses[severity])
        for path, line, code, severity in EXPECTED["made_objects"]
    ]


def test_dynamo_skips_the_frames_that_hold_objects_holding_their_own_methods(
    tmp_path: Path,
) -> None:
    # Each finding is confirmed (the skips at the break, "Reconstruction failure"), and so is
    # what follows from a skip: `through_callee` runs eagerly, so the module it makes runs
    # `Field.__init__` as a frame of its own, which Dynamo fails on at `super().__init__()`
    # ("Uninitialized nn.Module", BL211); no break is left that no rule predicts.
    # (`x.dim() > 3` is false for the probe's input: the `print` under it never runs.)
    assert probed_findings("held_methods", tmp_path) == [
        (path, line, code, "not-reached" if line == 32 else "confirmed")
        for path, line, code, _ in EXPECTED["held_methods"]
    ]


def test_dynamo_inlines_what_getattr_reads_by_a_name_built_in_code(tmp_path: Path) -> None:
    # Each method and module `getattr` reads by a computed name is inlined: its break is
    # reported in it.
    assert probed_findings("named_attributes", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["named_attributes"]
    ]


def test_dynamo_confirms_the_untraceable_object_methods(tmp_path: Path) -> None:
    # Each method breaks under Dynamo where it is flagged, and no other statement breaks.
    assert probed_findings("stdlib_objects", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["stdlib_objects"]
    ]


def test_dynamo_reads_the_value_of_a_0_dim_index(tmp_path: Path) -> None:
    assert probed_findings("element_indices", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["element_indices"]
    ]


def test_dynamo_breaks_where_a_mask_a_helper_returns_is_an_index(tmp_path: Path) -> None:
    assert probed_findings("returned_masks", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["returned_masks"]
    ]


def test_dynamo_breaks_at_a_regex_matchs_groupdict_and_nowhere_else(tmp_path: Path) -> None:
    assert probed_findings("regex_matches", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["regex_matches"]
    ]


def test_dynamo_breaks_where_python_reads_the_truth_of_a_numpy_result(tmp_path: Path) -> None:
    assert probed_findings("numpy_truths", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["numpy_truths"]
    ]


def test_dynamo_breaks_at_an_assert_whose_message_is_made_at_run_time(tmp_path: Path) -> None:
    assert probed_findings("formatted_asserts", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["formatted_asserts"]
    ]


def test_a_generator_runs_eagerly_after_its_first_break(tmp_path: Path) -> None:
    # Dynamo gives up on `forward` at `time.time()` in the generator it iterates (a frame
    # skipped there), and on `tally` in `clocked()`, which `timed` calls: it never sees the
    # `print` of either generator.
    assert probed_findings("generator_breaks", tmp_path) == [
        (path, line, code, "confirmed" if severity == "error" else "not-reproduced")
        for path, line, code, severity in EXPECTED["generator_breaks"]
    ]


def test_dynamo_cannot_make_a_subclass_of_functools_partial(tmp_path: Path) -> None:
    assert probed_findings("partial_subclasses", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["partial_subclasses"]
    ]


def test_dynamo_cannot_enter_an_attribute_of_a_wrappers_parameter(tmp_path: Path) -> None:
    # "Unsupported context manager": Dynamo gives up on the wrapper's frame at the `with`.
    assert probed_findings("wrapped_contexts", tmp_path) == [
        ("tools/caching.py", 7, "BL507", "confirmed")
    ]


def test_dynamo_cannot_sort_the_items_of_a_dict_of_tensors(tmp_path: Path) -> None:
    # "sort with non-constant keys" at each flagged `sorted`, and the dict of numbers and the
    # pairs sorted by their names compile.
    assert probed_findings("sorted_dicts", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["sorted_dicts"]
    ]


def test_dynamo_cannot_sort_the_items_of_a_dict_comprehension_of_tensors(tmp_path: Path) -> None:
    # "sort with non-constant keys" at each flagged `sorted`; the comprehensions of numbers
    # and of the pairs passed in sort.
    assert probed_findings("comprehended_dicts", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["comprehended_dicts"]
    ]


def test_dynamo_runs_the_wrapper_a_module_level_name_holds(tmp_path: Path) -> None:
    # "TypedDict with optional keys" inside the wrapper `_scale` holds, and nowhere else.
    assert probed_findings("called_wrappers", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["called_wrappers"]
    ]


def test_dynamo_refuses_the_code_of_torch_objects_it_skips(tmp_path: Path) -> None:
    # "Attempted to inline function marked as skipped" at each flagged call, and nowhere else.
    assert probed_findings("skipped_torch_objects", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["skipped_torch_objects"]
    ]


def test_dynamo_breaks_on_sorted_list_helpers_queues_and_conditions(tmp_path: Path) -> None:
    # Each call breaks under Dynamo 2.13 where it is flagged (a queue's methods enter its
    # `threading.Condition`: "Unsupported context manager"), `guarded` is skipped at its
    # `with`, and no other statement breaks.
    assert probed_findings("stdlib_queues", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["stdlib_queues"]
    ]


def test_dynamo_breaks_where_keywords_passed_on_through_kwargs_arrive(tmp_path: Path) -> None:
    # Each break is where it is flagged, `solve` is skipped (GB0092), and the branch
    # on the number passed the same way does not break (no BL900).
    assert probed_findings("forwarded_keywords", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["forwarded_keywords"]
    ]


def test_dynamo_breaks_at_the_methods_of_numpy_objects(tmp_path: Path) -> None:
    # Each numpy call and each method of the objects they make breaks where it is flagged;
    # the method of the array `np.interp` makes is traced (no BL900).
    assert probed_findings("numpy_objects", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["numpy_objects"]
    ]


def test_dynamo_breaks_in_the_objects_that_values_choose(tmp_path: Path) -> None:
    # Each solver class the factory returns breaks where it is flagged (one probe makes each),
    # and so does each element class of the containers. The loop's frame is not skipped
    # (Dynamo 2.13 resumes after the break in `Scale.step`); `Integrator.forward` and
    # `Stepper.forward` are skipped whole: Dynamo cannot rebuild the bound method of the
    # object they made (GB0092), made in the call itself (line 39) or held in a local (line 22).
    statuses = {"error": "confirmed", "info": "not-reproduced"}
    assert probed_findings("object_scope", tmp_path) == [
        (path, line, code, statuses[severity])
        for path, line, code, severity in EXPECTED["object_scope"]
    ]


def test_dynamo_breaks_in_the_classes_a_registry_holds(tmp_path: Path) -> None:
    # Each flagged line breaks; `odeint` is skipped whole (GB0092) where its solver was made
    # in it. Where a factory hands it back (the `shared` probe), only the first call, which
    # makes the shared solver, skips `odeint_made` (GB0092): a skip no rule predicts.
    assert probed_findings("registry_objects", tmp_path) == sorted(
        [
            *(
                (path, line, code, "confirmed")
                for path, line, code, _ in EXPECTED["registry_objects"]
            ),
            ("api.py", 22, "BL901", "confirmed"),
        ]
    )


def test_dynamo_breaks_in_the_objects_that_locals_hold(tmp_path: Path) -> None:
    # Each break is where it is flagged, and each frame flagged is skipped; `Shared.forward`,
    # which calls the same breaking method on a factory's object, is not skipped (no BL901).
    assert probed_findings("local_objects", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["local_objects"]
    ]


def test_dynamo_breaks_in_the_methods_called_through_an_attribute_holding_self(
    tmp_path: Path,
) -> None:
    assert probed_findings("self_references", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["self_references"]
    ]


def test_dynamo_breaks_in_the_methods_of_the_objects_callers_pass(tmp_path: Path) -> None:
    # With the probes, `choose` is compiled too: each class's methods that its callers pass
    # are traced (`Sampled.act`'s `int(...)`), and both `confident` return a tensor.
    assert probed_findings("parameter_objects", tmp_path) == [
        ("agents/learner.py", 11, "BL101", "confirmed"),
        ("agents/learner.py", 19, "BL102", "confirmed"),
        ("agents/policies.py", 18, "BL102", "confirmed"),
        ("run.py", 11, "BL201", "confirmed"),
        ("run.py", 18, "BL201", "confirmed"),
    ]


def test_dynamo_breaks_where_builtins_draw_tensors(tmp_path: Path) -> None:
    # Each finding breaks under Dynamo (the generator's frame skipped); `any_flag`,
    # `any_empty` and the crop by a number passed in do not (no BL900).
    assert probed_findings("builtin_truths", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["builtin_truths"]
    ]


def test_dynamo_breaks_where_a_comprehension_reads_what_its_for_binds(tmp_path: Path) -> None:
    assert probed_findings("comprehension_targets", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["comprehension_targets"]
    ]


def test_dynamo_breaks_where_a_number_annotated_parameter_gets_a_tensor(tmp_path: Path) -> None:
    # The tensor passed to `scale: float` breaks; `ratio`, a number where Dynamo runs, does
    # not (no BL900).
    assert probed_findings("scalar_annotations", tmp_path) == [
        ("pool/select.py", 16, "BL201", "confirmed")
    ]


def test_dynamo_breaks_where_helpers_hand_tensors_back(tmp_path: Path) -> None:
    assert probed_findings("input_helpers", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["input_helpers"]
    ]


def test_dynamo_breaks_in_a_modules_own_call_and_after_its_bases_forward(
    tmp_path: Path,
) -> None:
    assert probed_findings("base_calls", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["base_calls"]
    ]


def test_dynamo_breaks_where_a_union_parameter_holds_the_tensors_passed(tmp_path: Path) -> None:
    # Both errors break under Dynamo; the `elif` on the number passed does not.
    assert probed_findings("annotated_unions", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["annotated_unions"]
    ]


def test_dynamo_follows_the_constants_callers_pass(tmp_path: Path) -> None:
    # The breaks flagged are Dynamo's, and what the constants rule out breaks nowhere (no
    # BL900).
    assert probed_findings("constant_flags", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["constant_flags"]
    ]


def test_dynamo_breaks_where_each_script_roots_imports_lead(tmp_path: Path) -> None:
    # Each script root run as its users run it (a probe each): the breaks are in the modules
    # its own folder holds, and in no same-named module of another root (no BL900).
    assert probed_findings("script_roots", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["script_roots"]
    ]


def test_what_the_probes_compile_is_in_scope(tmp_path: Path) -> None:
    # `lib.audio.mel` (returned by a builder beside the probes), `Codec().eval().decode`,
    # `wobble` (defined beside the probes, linted too), `local_ops.ripple` (of a module beside
    # them, imported whole), what a lambda calls and what a partial wraps are compiled by the
    # probes only; Dynamo breaks where the static findings are.
    assert probed_findings("compile_roots", tmp_path) == [
        ("lib/audio.py", 5, "BL401", "confirmed"),
        ("lib/audio.py", 15, "BL401", "confirmed"),
        ("lib/audio.py", 20, "BL401", "confirmed"),
        ("lib/codec.py", 19, "BL401", "not-reached"),
        ("lib/codec.py", 23, "BL401", "confirmed"),
        ("lib/ops.py", 2, "BL401", "not-reached"),
        ("lib/ops.py", 7, "BL401", "not-reached"),
        ("lib/ops.py", 12, "BL401", "not-reached"),
        ("probes/local_ops.py", 5, "BL401", "confirmed"),
        ("probes/local_ops.py", 10, "BL401", "confirmed"),  # `local_ops.ripple`
    ]


# The entry each project's model is built and called from, for Dynamo.
_DYNAMO_RUNS = {
    "false_findings": "from model import Decoder as M; m, args = M(), "
    "(torch.randn(2, 4), torch.randn(2, 8))",
    "held_objects": "from run import build; m, args = build(), (torch.randn(4),)",
    "check_operands": "from model import Model as M; m, args = M(), (torch.randn(2, 3),)",
    "tracing_helpers": "from model import Model as M; m, args = M(), (torch.randn(2, 3),)",
    "none_defaults": "from model import Model as M; m, args = M(), (torch.randn(3),)",
    "tensor_flow": "from model import Encoder as M; m, args = M(), "
    "(torch.randn(4, 3), torch.ones(4) > 0, torch.randn(4, 2))",
}
_EXPLAIN = """
import json, os, sys, torch, torch._dynamo
sys.path.insert(0, sys.argv[1])
{build}
explained = torch._dynamo.explain(m)(*args)
root = os.path.realpath(sys.argv[1])
lines = set()
for reason in explained.break_reasons:
    frame = reason.user_stack[-1]
    lines.add((os.path.relpath(os.path.realpath(frame.filename), root), frame.lineno))
print(json.dumps(sorted(lines)))
"""


@pytest.mark.parametrize("project", sorted(_DYNAMO_RUNS))
def test_dynamo_breaks_exactly_where_the_findings_are(project: str) -> None:
    pytest.importorskip("torch", reason="Dynamo confirms the findings: needs torch")
    code = _EXPLAIN.format(build=_DYNAMO_RUNS[project])
    breaks = {(path, line) for path, line in _explained(code, project)}
    # `explain` reports breaks, not the frames Dynamo skips (BL208's), nor what runs eagerly
    # in a frame skipped before it (info).
    assert breaks == {
        (path, line)
        for path, line, code, severity in EXPECTED[project]
        if all_rules()[code].breaks_graph and severity != "info"
    }


def test_dynamo_breaks_in_functions_compiled_where_they_are_defined() -> None:
    pytest.importorskip("torch", reason="Dynamo confirms the findings: needs torch")
    code = """
import json, os, sys, torch, torch._dynamo
sys.path.insert(0, sys.argv[1])
from run import make_clipper, make_stepper
root = os.path.realpath(sys.argv[1])
lines = set()
for compiled, args in ((make_stepper(), (torch.randn(4), 1)), (make_clipper(), (torch.randn(4),))):
    for reason in torch._dynamo.explain(compiled)(*args).break_reasons:
        frame = reason.user_stack[-1]
        lines.add((os.path.relpath(os.path.realpath(frame.filename), root), frame.lineno))
print(json.dumps(sorted(lines)))
"""
    breaks = {(path, line) for path, line in _explained(code, "nested_roots")}
    assert breaks == {(path, line) for path, line, _, _ in EXPECTED["nested_roots"]}


def test_neither_capture_knob_removes_the_breaks_of_0_dim_indices() -> None:
    # With `capture_scalar_outputs` and `capture_dynamic_output_shape_ops` both set, only
    # `torch.unique` (BL301) compiles: each 0-dim index and the store into a 0-dim tensor still
    # break (BL304 offers no knob).
    pytest.importorskip("torch", reason="Dynamo confirms the findings: needs torch")
    code = _EXPLAIN.format(
        build="from probes.probes import probe_model; m, args = probe_model(); "
        "torch._dynamo.config.capture_scalar_outputs = True; "
        "torch._dynamo.config.capture_dynamic_output_shape_ops = True"
    )
    breaks = {(path, line) for path, line in _explained(code, "element_indices")}
    assert breaks == {
        (path, line) for path, line, code, _ in EXPECTED["element_indices"] if code == "BL304"
    }


def _explained(code: str, project: str) -> list[list[object]]:
    """The last line a script that explains a project's code prints, read as JSON (what the
    model prints comes first)."""
    done = subprocess.run(
        [sys.executable, "-c", code, str(PROJECTS / project)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    found: list[list[object]] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_a_changed_call_site_re_lints_the_callee_in_another_file(breaklint, write) -> None:
    # What callers pass is part of the callee's re-check: the cache must not answer for it.
    write(
        "ops.py",
        """
        def head(x, n):
            return x[:n]
        """,
    )
    caller = """
        import torch
        from torch import nn

        from ops import head


        class Model(nn.Module):
            def forward(self, x: torch.Tensor):
                return head(x, {count})
        """
    write("model.py", caller.format(count="x.sum().long()"))
    done = breaklint("--isolated", "--output-format", "concise", "-q", ".")
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].startswith("ops.py:2:15: BL304 [error] `n` is a tensor")
    write("model.py", caller.format(count="4"))
    done = breaklint("--isolated", "--output-format", "concise", "-q", ".")
    assert (done.returncode, done.stdout) == (0, "")


def test_dynamo_breaks_inside_the_forward_of_an_autograd_function() -> None:
    pytest.importorskip("torch", reason="Dynamo confirms the findings: needs torch")
    build = "from module.functions import Clamp; m, args = (lambda x: Clamp.apply(x * 2)), "
    code = _EXPLAIN.format(build=build + "(torch.randn(4),)")
    # The forward's own print comes first: the breaks are the last line.
    assert _explained(code, "scope_edges") == [["module/functions.py", 7]]


def test_dynamo_breaks_inside_the_backward_of_an_autograd_function_when_grad_is_on() -> None:
    pytest.importorskip("torch", reason="Dynamo confirms the findings: needs torch")
    build = "from module.functions import Scale; m = lambda x: Scale.apply(x * 2)"
    with_grad = _EXPLAIN.format(build=build + "; args = (torch.randn(4, requires_grad=True),)")
    without = _EXPLAIN.format(build=build + "; args = (torch.randn(4),)")
    assert _explained(with_grad, "scope_edges") == [["module/functions.py", 22]]
    assert _explained(without, "scope_edges") == []


def test_what_the_probes_builder_passes_is_what_the_compiled_code_holds(tmp_path: Path) -> None:
    # `Pipeline.stage` holds what only the builder beside the probes passes, a `Clipping`:
    # that builder is not linted, but its calls decide the static scope, and Dynamo breaks
    # there. The project's other findings are not reached by this probe.
    root = PROJECTS / "held_objects"
    report = probed_report(root, PROJECTS / "held_objects_probes" / "probes.py", tmp_path)
    found = [
        (Path(f["path"]).relative_to(root).as_posix(), f["line"], f["code"], f["status"])
        for f in report["findings"]
    ]
    clipping = ("parts/strategies.py", 29, "BL101", "confirmed")
    others = [(path, line, code, "not-reached") for path, line, code, _ in EXPECTED["held_objects"]]
    assert found == sorted([*others, clipping])


def test_a_relative_import_reaches_the_package_init(breaklint, write) -> None:
    # `from . import head` names `pkg` nowhere in model.py: only its package does, and that
    # is enough for the project to check `head` with its caller's tensor.
    write(
        "pkg/__init__.py",
        """
        def head(x, n):
            return x[:n]
        """,
    )
    write(
        "pkg/model.py",
        """
        import torch
        from torch import nn

        from . import head


        class Model(nn.Module):
            def forward(self, x: torch.Tensor):
                return head(x, x.sum().long())
        """,
    )
    done = breaklint("--isolated", "--no-cache", "--output-format", "concise", "-q", ".")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        "pkg/__init__.py:2:15: BL304 [error] `n` is a tensor where slicing needs a Python "
        "number (a size, a count, a bound); Dynamo must read its value, a data-dependent "
        "operator, and breaks the graph here"
    ]


def test_an_import_python_cannot_place_resolves_to_no_module(breaklint, write) -> None:
    # `from util import head` in a/run.py is a/util.py (its own folder). From pkg/model.py
    # (a package: its root holds no util.py) Python finds a/util.py or b/util.py depending on
    # the entry script: no guess, so b/util.py's `head` is never given a tensor.
    head = "def head(x, n):\n    return x[:n]\n"
    write("a/util.py", head)
    write("b/util.py", head)
    caller = """
        import torch
        from torch import nn

        from util import head


        class {name}(nn.Module):
            def forward(self, x: torch.Tensor):
                return head(x, x.sum().long())
        """
    write("a/run.py", caller.format(name="Runner"))
    write("pkg/__init__.py", "")
    write("pkg/model.py", caller.format(name="Model"))
    done = breaklint("--isolated", "--no-cache", "--output-format", "concise", "-q", ".")
    assert done.returncode == 1, done.stderr
    assert [line.split(" [")[0] for line in done.stdout.splitlines()] == ["a/util.py:2:15: BL304"]


def test_a_module_added_beside_the_importer_takes_its_import_from_the_cache(
    breaklint, write, tmp_path: Path
) -> None:
    # `from util import head` in a/run.py finds b/util.py while it is the only `util`, then
    # a/util.py once it exists (the importer's own folder): the cached run must follow.
    head = "def head(x, n):\n    return x[:n]\n"
    write("b/util.py", head)
    write(
        "a/run.py",
        """
        import torch
        from torch import nn

        from util import head


        class Runner(nn.Module):
            def forward(self, x: torch.Tensor):
                return head(x, x.sum().long())
        """,
    )

    def flagged() -> list[str]:
        done = breaklint("--isolated", "--output-format", "concise", "-q", ".")
        assert done.returncode == 1, done.stderr
        return [line.split(" [")[0] for line in done.stdout.splitlines()]

    assert flagged() == ["b/util.py:2:15: BL304"]
    assert (tmp_path / ".breaklint_cache").is_dir()
    write("a/util.py", head)
    assert flagged() == ["a/util.py:2:15: BL304"]


def test_roots_patterns_name_modules_by_their_dotted_names(tmp_path: Path) -> None:
    # `run` is train/run.py and infer/run.py: each keeps its name for `--roots`.
    assert findings("script_roots", tmp_path, "--roots", "run.Predictor.*") == [
        ("infer/utils.py", 2, "BL304", "error")
    ]


def test_an_import_after_a_comment_line_links_the_files(breaklint, tmp_path: Path) -> None:
    # A comment line ending in an old Mac `\r`: the import after it is code.
    (tmp_path / "helpers.py").write_text("def head(x, n):\n    return x[:n]\n", encoding="utf-8")
    model = (
        "import torch\nfrom torch import nn\n# the helper\rfrom helpers import head\n\n\n"
        "class Model(nn.Module):\n    def forward(self, x: torch.Tensor):\n"
        "        return head(x, x.sum().long())\n"
    )
    (tmp_path / "model.py").write_bytes(model.encode("utf-8"))
    done = breaklint("--isolated", "--no-cache", "--output-format", "concise", "-q", ".")
    assert done.returncode == 1, done.stderr
    assert [line.split(" [")[0] for line in done.stdout.splitlines()] == ["helpers.py:2:15: BL304"]


def test_files_sharing_a_module_name_outside_packages(breaklint, write) -> None:
    # Two `util.py` in folders that are no packages: two modules, each keyed by its file,
    # and the callee summaries must ask for the right one (it crashed with a KeyError).
    write("a/util.py", "def head(x, n):\n    return x[:n]\n")
    write("b/util.py", "def scale(x):\n    for _ in range(2):\n        print(x)\n    return x\n")
    done = breaklint("--isolated", "--no-cache", "--output-format", "concise", "-q", ".")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_dynamo_reads_sizes_from_tensors_made_of_numbers(tmp_path: Path) -> None:
    # The reshape, repeat and new_zeros sizes made with `torch.as_tensor` do not break.
    assert probed_findings("number_tensors", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["number_tensors"]
    ]


def test_dynamo_breaks_where_a_leaf_made_in_the_graph_outlives_it(tmp_path: Path) -> None:
    assert probed_findings("leaked_leaves", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["leaked_leaves"]
    ]


def test_dynamo_breaks_where_a_tensor_is_resized_in_place(tmp_path: Path) -> None:
    assert probed_findings("resized_tensors", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["resized_tensors"]
    ]


def test_dynamo_compares_a_size_with_a_parameter_in_python(tmp_path: Path) -> None:
    assert probed_findings("size_comparisons", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["size_comparisons"]
    ]


def test_dynamo_skips_the_frames_that_read_a_new_objects_cached_property(tmp_path: Path) -> None:
    if sys.version_info >= (3, 12):
        pytest.skip("`functools.cached_property` has no lock from Python 3.12 on")
    # `Density`'s table, made in `__init__`, computes its cached property on the first call:
    # Dynamo skips `Table.apply` there (the property's lock), a skip no rule predicts.
    assert probed_findings("cached_properties", tmp_path) == sorted(
        [
            *(
                (path, line, code, "confirmed")
                for path, line, code, _ in EXPECTED["cached_properties"]
            ),
            ("dists/truncated.py", 34, "BL901", "confirmed"),
        ]
    )


def test_dynamo_does_not_skip_the_frame_whose_object_breaks_while_made(tmp_path: Path) -> None:
    # After the break in `Checked.__init__`, Dynamo runs the rest of `CheckedSolve.forward`
    # eagerly (measured on 2.13): no frame skip at 14, and the break at 11 is never traced.
    statuses = {11: "not-reproduced"}
    assert probed_findings("breaking_constructors", tmp_path) == [
        (path, line, code, statuses.get(line, "confirmed"))
        for path, line, code, _ in EXPECTED["breaking_constructors"]
    ]


def test_dynamo_skips_a_getter_at_the_first_use_on_each_path(tmp_path: Path) -> None:
    # `probe_stacked` takes the `if` (line 13), `probe_interleaved` goes past it (line 14).
    # Dynamo also fails to rebuild the bound method `Tasks(...).centred` in the callers after
    # the skip inside it (model.py 8 and 13): a skip no static rule reports (see
    # super_properties).
    assert probed_findings("branched_properties", tmp_path) == sorted(
        [
            *(
                (path, line, code, "confirmed")
                for path, line, code, _ in EXPECTED["branched_properties"]
            ),
            ("model.py", 8, "BL901", "confirmed"),
            ("model.py", 13, "BL901", "confirmed"),
        ]
    )


def test_dynamo_skips_a_frame_that_returns_an_object_holding_its_own_methods(
    tmp_path: Path,
) -> None:
    assert probed_findings("returned_holders", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["returned_holders"]
    ]


def test_dynamo_breaks_where_sliced_arithmetic_gives_the_repeats(tmp_path: Path) -> None:
    assert probed_findings("sliced_repeats", tmp_path) == [
        (path, line, code, "confirmed") for path, line, code, _ in EXPECTED["sliced_repeats"]
    ]
