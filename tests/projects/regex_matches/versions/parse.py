import re

SEMVER = re.compile(r"(?P<major>\d+)\.(?P<minor>\d+)\.(?P<patch>\d+)")


def by_module_pattern(version):
    match = SEMVER.match(version)
    parts = match.groupdict()
    return int(parts["minor"])


def by_local_pattern(version):
    pattern = re.compile(r"(?P<major>\d+)\.")
    found = pattern.search(version)
    return int(found.groupdict()["major"])


def by_function(version):
    found = re.fullmatch(r"(?P<major>\d+)\.(?P<rest>.*)", version)
    return len(found.groupdict()["rest"])


def major(version):
    return int(SEMVER.match(version).group("major"))


class Release:
    def groupdict(self):
        return {"major": 1}

    def count(self):
        return len(self.groupdict())
