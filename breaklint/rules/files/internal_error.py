from breaklint.findings import Severity
from breaklint.rule import Phase, Rule


class InternalError(Rule):
    code = "BL002"
    name = "internal-error"
    phase = Phase.FILE
    severity = Severity.ERROR
    message = "breaklint failed on this code; the rest of the project was still checked"
    hint = "please report this with the code that caused it; `# noqa: BL002` silences it"
    fix_safety = """
No automatic fix: breaklint failed on the file, so it knows nothing about the code to rewrite.
"""
    what = """
Reports code on which breaklint itself failed (a bug in breaklint, not in your code). The
other files, and the other functions of this file, are still checked, and breaklint exits
with status 2 so that CI notices.
"""
    why = """
Nothing is known about graph breaks in code breaklint could not analyse, so it says so rather
than report the code as clean.
"""
    example = ""
    use_instead = ""
