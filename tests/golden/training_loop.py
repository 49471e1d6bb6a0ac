import torch
import torch.nn.functional as F


def train(model, batches, optimizer, epochs: int = 1):
    for epoch in range(epochs):
        for inputs, labels in batches:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(inputs), labels)
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} loss {loss.item():.4f}")
    return float(loss)
