"""BL001 exactly when `python file.py` fails, with CPython's own message, while most files are
never compiled to bytecode: the index walk notes what the compiler may reject
(`breaklint.compile_stage`), and only such files are compiled. One snippet per error the
compiler raises after the parser accepted the code, and code near each that compiles."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

from breaklint.compile_stage import CompileStage
from breaklint.index import build_index

NESTED_LOOPS = "".join(f"{'    ' * depth}for x{depth} in y:\n" for depth in range(21))
MANY_WITH_ITEMS = "with " + ", ".join(f"a{n}" for n in range(21)) + ":\n    pass\n"
NAMES_BEFORE_STAR = ", ".join(f"a{n}" for n in range(256)) + ", *rest = x\n"
FEWER_NAMES_BEFORE_STAR = ", ".join(f"a{n}" for n in range(255)) + ", *rest = x\n"

REFUSED = {
    "starred_statement": "*_\n",
    "starred_assigned": "x = *a\n",
    "starred_augmented": "x += *a\n",
    "starred_annotated": "x: int = *a\n",
    "starred_returned": "def f():\n    return *a\n",
    "starred_yielded": "def f():\n    yield *a\n",
    "return_module": "return 1\n",
    "return_class": "class A:\n    return 1\n",
    "return_class_in_function": "def f():\n    class A:\n        return 1\n",
    "yield_module": "yield 1\n",
    "yield_from_class": "class A:\n    x = yield from y\n",
    "yield_default": "def g(x=(yield)):\n    pass\n",
    "yield_decorator": "@(yield)\ndef f():\n    pass\n",
    "yield_list_comprehension": "def f():\n    return [(yield x) for x in y]\n",
    "yield_generator_expression": "def f():\n    return ((yield x) for x in y)\n",
    "yield_dict_comprehension": "def f():\n    return {x: (yield) for x in y}\n",
    "yield_from_async": "async def f():\n    yield from x\n",
    "return_value_async_generator": "async def f():\n    yield 1\n    return 2\n",
    "await_module": "await x\n",
    "await_function": "def f():\n    await x\n",
    "await_lambda": "async def f():\n    return lambda: await x\n",
    "async_for_function": "def f():\n    async for x in y:\n        pass\n",
    "async_with_function": "def f():\n    async with x:\n        pass\n",
    "async_comprehension_function": "def f():\n    return [x async for x in y]\n",
    "async_comprehension_module": "[x async for x in y]\n",
    "break_module": "break\n",
    "continue_module": "continue\n",
    "break_loop_else": "for x in y:\n    pass\nelse:\n    break\n",
    "break_function_in_loop": "for x in y:\n    def f():\n        break\n",
    "continue_class_in_loop": "while x:\n    class A:\n        continue\n",
    "break_except_star": "for x in y:\n    try:\n        pass\n    except* E:\n        break\n",
    "return_except_star": "def f():\n    try:\n        pass\n    except* E:\n        return\n",
    "nonlocal_module": "nonlocal x\n",
    "nonlocal_unbound": "def f():\n    nonlocal x\n",
    "global_parameter": "def f(x):\n    global x\n",
    "global_after_assignment": "def f():\n    x = 1\n    global x\n",
    "global_annotated": "def f():\n    global x\n    x: int = 1\n",
    "future_late": "import os\nfrom __future__ import annotations\n",
    "future_same_line": "import os; from __future__ import annotations\n",
    "future_after_two_strings": '"doc"\n"more"\nfrom __future__ import annotations\n',
    "future_braces": "from __future__ import braces\n",
    "future_unknown": "from __future__ import nothing\n",
    "future_in_function": "def f():\n    from __future__ import annotations\n",
    "import_star_function": "def f():\n    from os import *\n",
    "import_star_class": "class A:\n    from os import *\n",
    "debug_assigned": "__debug__ = 1\n",
    "debug_parameter": "def f(__debug__):\n    pass\n",
    "debug_keyword": "f(__debug__=1)\n",
    "debug_attribute": "x.__debug__ = 1\n",
    "debug_import": "import os as __debug__\n",
    "debug_deleted": "del __debug__\n",
    "starred_alone": "*a = b\n",
    "starred_twice": "a, *b, *c = d\n",
    "starred_for_target": "for *a in b:\n    pass\n",
    "starred_after_256_names": NAMES_BEFORE_STAR,
    "starred_twice_nested": "a, (*b, *c) = d\n",
    "walrus_rebinds_iteration_variable": "[i := 0 for i in y]\n",
    "walrus_in_iterable": "[x for x in (y := [1])]\n",
    "walrus_comprehension_in_class": "class A:\n    [(y := x) for x in z]\n",
    "walrus_inner_loop": "[j for i in y if (j := i) for j in y]\n",
    "yield_annotation_pep563": "from __future__ import annotations\n\n\n"
    "def f():\n    def g(x: (yield)):\n        pass\n",
    "await_annotation_pep563": "from __future__ import annotations\n\n\n"
    "async def f():\n    x: (await y) = 1\n",
    "walrus_annotation_pep563": "from __future__ import annotations\n\n\n"
    "def f(x: (y := int)):\n    pass\n",
    "repeated_parameter": "def f(a, a):\n    pass\n",
    "repeated_lambda_parameter": "lambda a, *, a: 0\n",
    "repeated_keyword": "f(a=1, a=2)\n",
    "repeated_class_keyword": "class A(x=1, x=2):\n    pass\n",
    "bare_except_first": "try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass\n",
    "match_capture_first": "match x:\n    case y:\n        pass\n    case 1:\n        pass\n",
    "match_name_twice": "match x:\n    case [a, a]:\n        pass\n",
    "match_key_twice": "match x:\n    case {1: a, 1: b}:\n        pass\n",
    "match_alternatives_bind": "match x:\n    case [a] | b:\n        pass\n",
    "nested_loops": NESTED_LOOPS + "    " * 21 + "pass\n",
    "with_items": MANY_WITH_ITEMS,
}

COMPILES = {
    "walrus_class_body": "class A:\n    (x := 1)\n",
    "continue_in_finally": "for x in y:\n    try:\n        pass\n    finally:\n        continue\n",
    "yield_lambda": "f = lambda: (yield)\n",
    "yield_default_in_function": "def f():\n    def g(x=(yield)):\n        pass\n",
    "await_comprehension": "async def f():\n    return [await x for x in y]\n",
    "async_comprehension": "async def f():\n    return [x async for x in y]\n",
    "starred_subscript": "print(a[*b])\n",
    "starred_annotation": "def f(*args: *Ts):\n    pass\n",
    "starred_target": "a, *b = c\n",
    "starred_targets_nested": "a, (b, *c), [*d] = e\n",
    "starred_loop_target": "for a, *b in c:\n    pass\n",
    "starred_comprehension_target": "[b for a, *b in c]\n",
    "starred_after_255_names": FEWER_NAMES_BEFORE_STAR,
    "futures_after_docstring": '"""doc"""\nfrom __future__ import annotations\n'
    "from __future__ import division\n",
    "walrus_in_function": "def f():\n    return [y := 1, y]\n",
    "walrus_in_lambda_in_comprehension": "[lambda: (y := x) for x in z]\n",
    "break_in_loop_in_function": "def f():\n    while x:\n        break\n",
    "keywords": "f(a=1, b=2, **c, **d)\n",
    "nested_blocks": "".join(f"{'    ' * d}for x{d} in y:\n" for d in range(18))
    + " " * 72
    + "pass\n",
}


def _compile_error(source: str, name: str) -> str:
    """The report line of a snippet that parses but does not compile, from `compile()`."""
    ast.parse(source)  # a parser error would not test the compile stage
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(SyntaxError) as raised:
            compile(source, name, "exec", dont_inherit=True)
    error = raised.value
    return f"{name}:{error.lineno}:{error.offset}: BL001 [error] SyntaxError: {error.msg}"


def test_code_the_compiler_refuses_is_bl001_with_its_message(breaklint, tmp_path: Path) -> None:
    for name, source in {**REFUSED, **COMPILES}.items():
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    result = breaklint(".", "--select", "BL001", "--output-format", "concise", "--jobs", "1")
    expected = sorted(_compile_error(source, f"{name}.py") for name, source in REFUSED.items())
    assert result.stdout.splitlines() == expected, result.stderr
    assert result.returncode == 1


def test_a_model_file_is_not_compiled_to_bytecode() -> None:
    text = (Path(__file__).parent / "corpus" / "models.py").read_text(encoding="utf-8")
    tree = ast.parse(text)
    stage = CompileStage(tree, text)
    build_index("models.py", tree, [], stage=stage)
    assert stage.reason is None


def test_unpacking_into_a_starred_target_is_not_compiled_to_bytecode() -> None:
    text = "a, *b = c\nfor d, (*e, f) in g:\n    [*h] = i\n"
    tree = ast.parse(text)
    stage = CompileStage(tree, text)
    build_index("unpacking.py", tree, [], stage=stage)
    assert stage.reason is None
