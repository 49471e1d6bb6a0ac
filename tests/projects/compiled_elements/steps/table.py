from steps.ops import centre, clip

STEPS = {"clip": clip, "centre": centre}
