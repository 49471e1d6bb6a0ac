import torch


def decode(logits, steps, early_stop=-1):
    tokens = logits.argmax(-1)
    for step in range(steps):
        if early_stop != -1 and step > early_stop:
            print("early stop at", step)
            print("tokens so far", tokens)
            break
        if torch.argmax(logits, dim=-1)[0] == 3:
            break
        logits = logits.roll(1, dims=-1)
        tokens = tokens + logits.argmax(-1)
    return tokens
