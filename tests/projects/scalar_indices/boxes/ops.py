def best(boxes, scores):
    top = scores.softmax(-1).argmax()
    picked = boxes[top]
    top = 0
    return picked + boxes[top]
