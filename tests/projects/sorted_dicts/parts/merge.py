def merged(h, parts):
    h = h * 2
    for _, part in sorted(parts.items()):
        h = h + part
    return h
