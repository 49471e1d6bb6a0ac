from breaklint.findings import Severity
from breaklint.rule import Phase, Rule


class ParseError(Rule):
    code = "BL001"
    name = "parse-error"
    phase = Phase.FILE
    severity = Severity.ERROR
    message = "file cannot be parsed"
    hint = "fix the syntax or the encoding; nothing in this file was checked"
    fix_safety = """
No automatic fix: the file does not parse or decode, so there is no code to rewrite; which
syntax or encoding was meant is the author's to say.
"""
    what = """
Reports a file that cannot be read, decoded or parsed as Python. breaklint checks nothing
else in such a file, so the problem is reported rather than skipped in silence.
"""
    why = """
`torch.compile` cannot trace a module that does not import. A file that is not valid UTF-8
(and declares no other encoding, PEP 263) or holds a syntax error hides every other finding.
"""
    example = """
class Head(torch.nn.Module):
    def forward(self, x)
        return x
"""
    use_instead = """
class Head(torch.nn.Module):
    def forward(self, x):
        return x
"""
