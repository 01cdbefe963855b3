"""Ultralytics' YOLO26 training maths on fixed inputs, for tst_yolo26_train_ultralytics.

Usage: python yolo26_train_reference.py OUTDIR

Runs Ultralytics' own classes (E2ELoss as DetectionModel.init_criterion builds it for yolo26n, its two
TaskAlignedAssigners, and MuSGD as BaseTrainer.build_optimizer builds it) on seeded random inputs and writes
the inputs and results to OUTDIR: each tensor as raw little-endian bytes NAME.bin, listed in tensors.txt as
"NAME DTYPE DIM...", plus modules.txt (the MuSGD test model's leaves, depth-first) and groups.txt (its
parameter groups). Nothing of Ultralytics is copied; the C++ test recomputes everything with Osprey.
"""

import sys
from pathlib import Path
from types import SimpleNamespace

import torch
from torch import nn

import ultralytics
from ultralytics.cfg import get_cfg
from ultralytics.engine.trainer import BaseTrainer
from ultralytics.nn.tasks import DetectionModel
from ultralytics.optim import MuSGD
from ultralytics.utils.loss import E2ELoss
from ultralytics.utils.tal import dist2bbox, make_anchors

OUT = Path(sys.argv[1])
OUT.mkdir(parents=True, exist_ok=True)
manifest = []


def save(name, tensor):
    """Writes a tensor as raw bytes and lists it in the manifest."""
    t = tensor.detach().contiguous().cpu()
    if t.dtype == torch.bool:
        t = t.to(torch.uint8)
    kinds = {torch.float32: "f32", torch.int64: "i64", torch.uint8: "u8"}
    if t.dtype not in kinds:
        t = t.to(torch.float32)
    (OUT / f"{name}.bin").write_bytes(t.numpy().tobytes())
    manifest.append(" ".join([name, kinds[t.dtype], *map(str, t.shape)]))


torch.manual_seed(20260914)
torch.set_num_threads(1)

# ---- E2E loss: 4 images 128x160 (H x W), 5 classes; image 1 has no boxes; tiny boxes for STAL ----------------
NC, B, H, W, EPOCHS = 5, 4, 128, 160, 10
STRIDES = (8, 16, 32)
levels = [(H // s, W // s) for s in STRIDES]
A = sum(h * w for h, w in levels)
boxes_px = {  # image -> (class, cx, cy, w, h) in pixels
    0: [(0, 20.5, 30.0, 3.0, 3.0), (1, 60.0, 40.0, 5.0, 12.0), (2, 100.0, 64.0, 12.0, 40.0),
        (3, 40.0, 90.0, 30.0, 30.0), (4, 120.0, 96.0, 70.0, 50.0), (1, 150.0, 10.0, 2.0, 2.0)],
    2: [(3, 80.0, 64.0, 60.0, 44.0)],
}
rows = []
for _ in range(9):  # image 3: random boxes of every size
    w, h = float(torch.empty(1).uniform_(4, 90)), float(torch.empty(1).uniform_(4, 90))
    cx, cy = float(torch.empty(1).uniform_(w / 2, W - w / 2)), float(torch.empty(1).uniform_(h / 2, H - h / 2))
    boxes_px.setdefault(3, []).append((int(torch.randint(0, NC, (1,))), cx, cy, w, h))
for image in sorted(boxes_px):
    for c, cx, cy, w, h in boxes_px[image]:
        rows.append((image, c, cx / W, cy / H, w / W, h / H))
rows = torch.tensor(rows, dtype=torch.float32)
batch = {"batch_idx": rows[:, 0], "cls": rows[:, 1:2], "bboxes": rows[:, 2:6]}

model = DetectionModel("yolo26n.yaml", nc=NC, verbose=False)
model.args = get_cfg(overrides={"epochs": EPOCHS})
criterion = model.init_criterion()
assert isinstance(criterion, E2ELoss), type(criterion)

feats = [torch.zeros(B, 1, h, w) for h, w in levels]
branches = {}
for branch in ("one2many", "one2one"):
    raw_boxes = (torch.rand(B, 4, A) * 3.0 + 0.05).requires_grad_()
    raw_scores = (torch.randn(B, NC, A) * 1.5 - 2.0).requires_grad_()
    branches[branch] = {"boxes": raw_boxes, "scores": raw_scores, "feats": feats}
    save(f"{branch}_boxes", raw_boxes)
    save(f"{branch}_scores", raw_scores)
preds = {k: dict(v) for k, v in branches.items()}

# The padded targets, the anchors and the assigner inputs exactly as v8DetectionLoss forms them.
one2one_loss = criterion.one2one
anchor_points, stride_tensor = make_anchors(feats, one2one_loss.stride, 0.5)
imgsz = torch.tensor(feats[0].shape[2:], dtype=torch.float32) * one2one_loss.stride[0]
targets = torch.cat((batch["batch_idx"].view(-1, 1), batch["cls"].view(-1, 1), batch["bboxes"]), 1)
targets = one2one_loss.preprocess(targets, B, scale_tensor=imgsz[[1, 0, 1, 0]])
gt_labels, gt_bboxes = targets.split((1, 4), 2)
mask_gt = gt_bboxes.sum(2, keepdim=True).gt_(0.0)
save("anchor_points", anchor_points)
save("stride_tensor", stride_tensor)
save("gt_labels", gt_labels)
save("gt_bboxes", gt_bboxes)
save("mask_gt", mask_gt)

# ---- the assigners of both branches on their own predictions ------------------------------------------------
for branch, loss_fn in (("one2many", criterion.one2many), ("one2one", criterion.one2one)):
    raw = branches[branch]
    pred_bboxes = dist2bbox(raw["boxes"].detach().permute(0, 2, 1), anchor_points, xywh=False)
    _, target_bboxes, target_scores, fg_mask, target_gt_idx = loss_fn.assigner(
        raw["scores"].detach().permute(0, 2, 1).sigmoid(),
        pred_bboxes * stride_tensor,
        anchor_points * stride_tensor,
        gt_labels,
        gt_bboxes,
        mask_gt,
    )
    save(f"assign_{branch}_boxes", target_bboxes)
    save(f"assign_{branch}_scores", target_scores.float())
    save(f"assign_{branch}_fg", fg_mask)
    save(f"assign_{branch}_index", target_gt_idx.long())
    print(f"{branch}: topk {loss_fn.assigner.topk}, topk2 {loss_fn.assigner.topk2}, "
          f"STAL side {loss_fn.assigner.stride_val}, {int(fg_mask.sum())} foreground anchors")

# ---- the loss at two epochs: the first (u = 0) and after 6 completed epochs --------------------------------
for completed in (0, 6):
    while criterion.updates < completed:
        criterion.update()
    for raw in branches.values():
        raw["boxes"].grad = None
        raw["scores"].grad = None
    total_vec, items = criterion(preds, batch)
    total = total_vec.sum()
    total.backward()
    o2m_vec, _ = criterion.one2many.loss(preds["one2many"], batch)
    o2o_vec, o2o_items = criterion.one2one.loss(preds["one2one"], batch)
    save(f"loss{completed}_total", total.reshape(1))
    save(f"loss{completed}_weights", torch.tensor([criterion.o2m, criterion.o2o], dtype=torch.float32))
    save(f"loss{completed}_one2many", (o2m_vec / B).detach())
    save(f"loss{completed}_one2one", (o2o_vec / B).detach())
    save(f"loss{completed}_logged", torch.stack(list(items.values())))
    for branch, raw in branches.items():
        save(f"loss{completed}_{branch}_boxes_grad", raw["boxes"].grad)
        save(f"loss{completed}_{branch}_scores_grad", raw["scores"].grad)
    print(f"loss after {completed} epochs: total {float(total.detach()):.6f}, weights {criterion.o2m:.4f}/{criterion.o2o:.4f}, "
          f"logged {list(items.keys())} {[round(float(v), 6) for v in items.values()]}")

# ---- YOLO11's v8DetectionLoss on the same targets: 8.4.190 applies STAL to every detector --------------------
v8_model = DetectionModel("yolo11n.yaml", nc=NC, verbose=False)
v8_model.args = get_cfg()
v8_loss = v8_model.init_criterion()
assert type(v8_loss).__name__ == "v8DetectionLoss" and v8_loss.reg_max == 16, type(v8_loss)
# DFL logits that favour bins 0 and 1: boxes about one cell wide, so that tiny GTs get positive IoUs.
v8_boxes = torch.randn(B, 4, 16, A)
v8_boxes[:, :, :2] += 4.0
v8_boxes, v8_scores = v8_boxes.view(B, 64, A), torch.randn(B, NC, A) * 1.5 - 2.0
v8_vec, _ = v8_loss.loss({"boxes": v8_boxes, "scores": v8_scores, "feats": feats}, batch)
save("v8_boxes", v8_boxes)
save("v8_scores", v8_scores)
save("v8_loss", (v8_vec / B).detach())
print(f"yolo11n v8DetectionLoss: STAL side {v8_loss.assigner.stride_val}, parts {(v8_vec / B).tolist()}")

# ---- MuSGD: one model of conv, BN, linear and head-like leaves, two steps ------------------------------------
class Conv(nn.Module):
    """Conv2d without bias + BatchNorm2d, named conv/bn as Ultralytics' Conv."""

    def __init__(self, c1, c2, k):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, padding=k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)


class Head(nn.Module):
    """Box and class branches of both heads, one level."""

    def __init__(self, c, nc):
        super().__init__()
        self.cv2 = nn.ModuleList([nn.Sequential(Conv(c, 16, 3), nn.Conv2d(16, 4, 1))])
        self.cv3 = nn.ModuleList([nn.Sequential(Conv(c, 16, 3), nn.Conv2d(16, nc, 1))])
        self.one2one_cv2 = nn.ModuleList([nn.Sequential(Conv(c, 16, 3), nn.Conv2d(16, 4, 1))])
        self.one2one_cv3 = nn.ModuleList([nn.Sequential(Conv(c, 16, 3), nn.Conv2d(16, nc, 1))])


class Scale(nn.Module):
    """A bare 1-D parameter: neither bias nor normalisation (the weight group)."""

    def __init__(self, n):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(n))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        layers = [nn.Identity() for _ in range(24)]
        layers[0] = Conv(3, 8, 3)
        layers[1] = nn.Conv2d(8, 16, 1)
        layers[2] = Conv(16, 16, 3)
        layers[3] = nn.Linear(16, 24)
        layers[4] = nn.Conv2d(16, 96, 1)
        layers[22] = Scale(16)
        layers[23] = Head(16, 5)
        self.model = nn.ModuleList(layers)


net = Net()
leaves = []
for name, module in net.named_modules():
    if isinstance(module, nn.Conv2d):
        leaves.append(f"conv {name} {module.in_channels} {module.out_channels} {module.kernel_size[0]} "
                      f"{int(module.bias is not None)}")
    elif isinstance(module, nn.BatchNorm2d):
        leaves.append(f"bn {name} {module.num_features}")
    elif isinstance(module, nn.Linear):
        leaves.append(f"linear {name} {module.in_features} {module.out_features} {int(module.bias is not None)}")
    elif isinstance(module, Scale):
        leaves.append(f"param {name} gamma {module.gamma.numel()}")
(OUT / "modules.txt").write_text("\n".join(leaves) + "\n")
with torch.no_grad():
    for name, p in net.named_parameters():
        p.copy_(torch.randn_like(p) * (0.5 if p.ndim > 1 else 0.2) + (1.0 if name.endswith("bn.weight") else 0.0))
        save(f"param_{name}", p)

trainer = SimpleNamespace(args=get_cfg(), data={"nc": 5})
optimizer = BaseTrainer.build_optimizer(trainer, net, name="MuSGD", lr=0.01, momentum=0.9, decay=5e-4)
assert isinstance(optimizer, MuSGD) and optimizer.muon == 0.2 and optimizer.sgd == 1.0
names = {id(p): n for n, p in net.named_parameters()}
with open(OUT / "groups.txt", "w") as f:
    for group in optimizer.param_groups:
        f.write(f"{group['lr']!r} {group['momentum']!r} {group['weight_decay']!r} {int(group.get('use_muon', False))} "
                f"{int(group['nesterov'])} {' '.join(names[id(p)] for p in group['params'])}\n")
for step in (1, 2):
    for name, p in net.named_parameters():
        p.grad = torch.randn_like(p) * (0.1 * step)
        save(f"grad{step}_{name}", p.grad)
    optimizer.step()
    for name, p in net.named_parameters():
        save(f"step{step}_{name}", p)
        state = optimizer.state[p]
        save(f"step{step}_momentum_{name}", state["momentum_buffer"])
        if "momentum_buffer_SGD" in state:
            save(f"step{step}_momentum_sgd_{name}", state["momentum_buffer_SGD"])

(OUT / "tensors.txt").write_text("\n".join(manifest) + "\n")
print(f"ultralytics {ultralytics.__version__}, torch {torch.__version__}: {len(manifest)} tensors, "
      f"{len(optimizer.param_groups)} MuSGD groups")
