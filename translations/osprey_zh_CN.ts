<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AcceptProposalsCommand</name>
    <message>
        <source>Accept Proposal</source>
        <translation>接受候选框</translation>
    </message>
    <message>
        <source>Accept %1 Proposals</source>
        <translation>接受 %1 个候选框</translation>
    </message>
</context>
<context>
    <name>AddBoxCommand</name>
    <message>
        <source>Add Box</source>
        <translation>添加框</translation>
    </message>
</context>
<context>
    <name>AddClassCommand</name>
    <message>
        <source>Add Class %1</source>
        <translation>添加类别 %1</translation>
    </message>
</context>
<context>
    <name>ChangeBoxClassCommand</name>
    <message>
        <source>Set Class to %1</source>
        <translation>将类别设为 %1</translation>
    </message>
</context>
<context>
    <name>DeleteBoxesCommand</name>
    <message>
        <source>Delete Box</source>
        <translation>删除框</translation>
    </message>
    <message>
        <source>Delete %1 Boxes</source>
        <translation>删除 %1 个框</translation>
    </message>
</context>
<context>
    <name>EditClassCommand</name>
    <message>
        <source>Rename Class %1</source>
        <translation>重命名类别 %1</translation>
    </message>
    <message>
        <source>Recolour Class %1</source>
        <translation>更改类别 %1 的颜色</translation>
    </message>
    <message>
        <source>Reorder Class %1</source>
        <translation>调整类别 %1 的顺序</translation>
    </message>
</context>
<context>
    <name>ModelFileChooser</name>
    <message>
        <source>Darknet Weights for %1</source>
        <translation>%1 的 Darknet 权重</translation>
    </message>
    <message>
        <source>Darknet weights (*.weights)</source>
        <translation>Darknet 权重 (*.weights)</translation>
    </message>
    <message>
        <source>Class Names for %1</source>
        <translation>%1 的类别名称</translation>
    </message>
    <message>
        <source>Names files (*.names *.txt)</source>
        <translation>类别名称文件 (*.names *.txt)</translation>
    </message>
    <message>
        <source>Models (*.pt *.onnx *.cfg);;Osprey or Ultralytics checkpoints (*.pt);;ONNX (*.onnx);;Darknet (*.cfg)</source>
        <translation>模型 (*.pt *.onnx *.cfg);;Osprey 或 Ultralytics 检查点 (*.pt);;ONNX (*.onnx);;Darknet (*.cfg)</translation>
    </message>
</context>
<context>
    <name>MoveBoxesCommand</name>
    <message>
        <source>Move Box</source>
        <translation>移动框</translation>
    </message>
    <message>
        <source>Move %1 Boxes</source>
        <translation>移动 %1 个框</translation>
    </message>
</context>
<context>
    <name>PasteBoxesCommand</name>
    <message>
        <source>Paste Boxes</source>
        <translation>粘贴框</translation>
    </message>
    <message>
        <source>Paste Boxes from Previous Image</source>
        <translation>粘贴上一张图像的框</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Exported %1 images and %2 boxes to %3 (%4 unlabeled left out).</source>
        <translation>已将 %1 张图像和 %2 个框导出到 %3（未包含 %4 张未标注图像）。</translation>
    </message>
    <message>
        <source>… and %1 more
</source>
        <translation>… 以及另外 %1 项
</translation>
    </message>
    <message>
        <source>skipped: </source>
        <translation>已跳过：</translation>
    </message>
    <message>
        <source>warning: </source>
        <translation>警告：</translation>
    </message>
    <message>
        <source>Format: %1
Images: %2
Boxes: %3
Classes: %4
</source>
        <translation>格式：%1
图像：%2
框：%3
类别：%4
</translation>
    </message>
    <message>
        <source>
%1 problems:
</source>
        <translation>
%1 个问题：
</translation>
    </message>
    <message>
        <source>Imported with format %1: %2 images, %3 boxes, %4 new classes.
Unlabeled: %5, verified empty: %6, already in the project: %7, crowd skipped: %8.
</source>
        <translation>已按 %1 格式导入：%2 张图像，%3 个框，%4 个新类别。
未标注：%5，确认为空：%6，已在项目中：%7，跳过的 crowd 框：%8。
</translation>
    </message>
    <message>
        <source>Split applied: %1 images changed split, %2 locked images kept, %3 grouped with an identical image.</source>
        <translation>已应用划分：%1 张图像更换了子集，保留 %2 张锁定图像，%3 张与相同图像归为一组。</translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1：%2 / %3</translation>
    </message>
    <message>
        <source>Importing would fail: %1
</source>
        <translation>导入将会失败：%1
</translation>
    </message>
    <message>
        <source>%1: %2 frames decoded, %3 sampled, %4 imported, %5 near-duplicates skipped, %6 already in the project
</source>
        <translation>%1：解码 %2 帧，抽取 %3 帧，导入 %4 帧，跳过近似重复 %5 帧，%6 帧已在项目中
</translation>
    </message>
    <message>
        <source>Cancelled: %1 frames imported (kept).</source>
        <translation>已取消：已导入 %1 帧（保留）。</translation>
    </message>
    <message>
        <source>Imported %1 frames from %2 video(s).</source>
        <translation>已从 %2 个视频导入 %1 帧。</translation>
    </message>
    <message>
        <source>%1: %2 image(s) added</source>
        <translation>%1：已添加 %2 张图像</translation>
    </message>
    <message>
        <source>Stopped watching: %1 file(s) taken, %2 image(s) added.</source>
        <translation>已停止监视：已接收 %1 个文件，已添加 %2 张图像。</translation>
    </message>
    <message>
        <source>%1 video frames kept in the split of the other frames of their video.</source>
        <translation>%1 个视频帧与其所属视频的其他帧保持在同一划分中。</translation>
    </message>
</context>
<context>
    <name>ResizeBoxCommand</name>
    <message>
        <source>Resize Box</source>
        <translation>调整框大小</translation>
    </message>
</context>
<context>
    <name>SetImageStatusCommand</name>
    <message>
        <source>Mark Image %1</source>
        <translation>将图像标记为%1</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Label images and train object detectors.</source>
        <translation>标注图像并训练目标检测器。</translation>
    </message>
    <message>
        <source>Project folder to open.</source>
        <translation>要打开的项目文件夹。</translation>
    </message>
</context>
<context>
    <name>osprey::run::Options</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Pretrained weights</source>
        <translation>预训练权重</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Training epochs: passes over the training images.</source>
        <translation>训练轮次：遍历全部训练图像的次数。</translation>
    </message>
    <message>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <source>Image side in pixels (a multiple of 32). Larger finds smaller objects but trains slower.</source>
        <translation>图像边长，单位像素（32 的倍数）。越大越能发现小目标，但训练越慢。</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>cpu, or a CUDA device index such as 0. A GPU needs an osprey-cli built with CUDA LibTorch.</source>
        <translation>cpu，或 CUDA 设备编号，如 0。使用 GPU 需要以 CUDA 版 LibTorch 构建的 osprey-cli。</translation>
    </message>
    <message>
        <source>Optimiser</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Initial learning rate</source>
        <translation>初始学习率</translation>
    </message>
    <message>
        <source>Initial learning rate (ignored by optimizer=auto).</source>
        <translation>初始学习率（optimizer=auto 时忽略）。</translation>
    </message>
    <message>
        <source>Patience</source>
        <translation>早停耐心值</translation>
    </message>
    <message>
        <source>Stop after this many epochs without a better mAP50-95.</source>
        <translation>连续这么多轮 mAP50-95 没有提升后停止。</translation>
    </message>
    <message>
        <source>Mosaic probability</source>
        <translation>马赛克概率</translation>
    </message>
    <message>
        <source>Chance of combining four images into one training image.</source>
        <translation>将四张图像拼成一张训练图像的概率。</translation>
    </message>
    <message>
        <source>Close mosaic</source>
        <translation>关闭马赛克</translation>
    </message>
    <message>
        <source>Switch mosaic off for this many final epochs.</source>
        <translation>在最后这么多轮中关闭马赛克增强。</translation>
    </message>
    <message>
        <source>Horizontal flip probability</source>
        <translation>水平翻转概率</translation>
    </message>
    <message>
        <source>Chance of mirroring an image left to right.</source>
        <translation>将图像左右镜像的概率。</translation>
    </message>
    <message>
        <source>Loader threads</source>
        <translation>加载线程数</translation>
    </message>
    <message>
        <source>Data loader threads that decode and augment images; -1 = from the CPU count (GPU: cores - 1, up to 8; CPU: 1 per 4 cores).</source>
        <translation>负责解码和增强图像的数据加载线程数；-1 = 按 CPU 核数自动设定（GPU：核数 - 1，最多 8；CPU：每 4 核 1 个）。</translation>
    </message>
    <message>
        <source>Run name</source>
        <translation>运行名称</translation>
    </message>
    <message>
        <source>Run folder name under &lt;project&gt;/runs (default train, train2, ...); the run&apos;s name on the platform.</source>
        <translation>&lt;project&gt;/runs 下的运行文件夹名（默认 train、train2、...）；也是该运行在平台上的名称。</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Random seed; the same seed repeats the same run.</source>
        <translation>随机种子；相同的种子会重复同样的运行。</translation>
    </message>
    <message>
        <source>Final learning rate as a fraction of lr0.</source>
        <translation>最终学习率，为 lr0 的比例。</translation>
    </message>
    <message>
        <source>SGD momentum / AdamW beta1.</source>
        <translation>SGD 动量 / AdamW beta1。</translation>
    </message>
    <message>
        <source>Weight decay (scaled by batch x accumulate / 64).</source>
        <translation>权重衰减（按 批大小 × 累积步数 / 64 缩放）。</translation>
    </message>
    <message>
        <source>Warmup length in epochs (at least 100 iterations).</source>
        <translation>预热长度，单位为轮（至少 100 次迭代）。</translation>
    </message>
    <message>
        <source>Cosine learning-rate schedule instead of linear.</source>
        <translation>使用余弦学习率调度代替线性调度。</translation>
    </message>
    <message>
        <source>Hue jitter gain.</source>
        <translation>色调抖动增益。</translation>
    </message>
    <message>
        <source>Saturation jitter gain.</source>
        <translation>饱和度抖动增益。</translation>
    </message>
    <message>
        <source>Value jitter gain.</source>
        <translation>亮度抖动增益。</translation>
    </message>
    <message>
        <source>Random translation fraction.</source>
        <translation>随机平移比例。</translation>
    </message>
    <message>
        <source>Random scale gain.</source>
        <translation>随机缩放增益。</translation>
    </message>
    <message>
        <source>Continue the run name= (or the latest run) from weights/last.pt.</source>
        <translation>从 weights/last.pt 继续 name= 指定的运行（或最近一次运行）。</translation>
    </message>
    <message>
        <source>Torch CPU threads; 0 = all cores.</source>
        <translation>Torch CPU 线程数；0 = 所有核心。</translation>
    </message>
    <message>
        <source>Mixed precision: bf16 on GPUs that support it, else fp16 with a loss scaler; bf16 on CPUs with AMX or AVX512-BF16 (LibTorch 2.x).</source>
        <translation>混合精度：支持 bf16 的 GPU 上用 bf16，否则用 fp16 加损失缩放；带 AMX 或 AVX512-BF16 的 CPU 上用 bf16（LibTorch 2.x）。</translation>
    </message>
    <message>
        <source>Nominal batch: gradients accumulate to this many images per step.</source>
        <translation>名义批大小：每一步累积这么多张图像的梯度。</translation>
    </message>
    <message>
        <source>Momentum at the start of warmup.</source>
        <translation>预热开始时的动量。</translation>
    </message>
    <message>
        <source>Bias learning rate at the start of warmup.</source>
        <translation>预热开始时偏置的学习率。</translation>
    </message>
    <message>
        <source>Box (CIoU) loss gain.</source>
        <translation>框 (CIoU) 损失增益。</translation>
    </message>
    <message>
        <source>Classification loss gain.</source>
        <translation>分类损失增益。</translation>
    </message>
    <message>
        <source>Distribution focal loss gain.</source>
        <translation>分布焦点损失 (DFL) 增益。</translation>
    </message>
    <message>
        <source>NMS confidence threshold.</source>
        <translation>NMS 置信度阈值。</translation>
    </message>
    <message>
        <source>Validate after each epoch (the fitness needs it).</source>
        <translation>每轮后在验证集上验证（计算适应度需要）。</translation>
    </message>
    <message>
        <source>Images per batch. Lower it if memory runs out. -1: AutoBatch (60% of free GPU memory); 0.7: AutoBatch for that fraction.</source>
        <translation>每批的图像数。内存不足时请调小。-1：AutoBatch（使用 60% 的空闲显存）；0.7：按该比例使用 AutoBatch。</translation>
    </message>
    <message>
        <source>epochs</source>
        <translation>轮</translation>
    </message>
    <message>
        <source>images</source>
        <translation>张图像</translation>
    </message>
    <message>
        <source>px</source>
        <translation>px</translation>
    </message>
    <message>
        <source>Start from this checkpoint: an Osprey or Ultralytics .pt such as yolov8n.pt; class outputs reset when nc differs. Empty trains from scratch.</source>
        <translation>从此检查点开始：Osprey 或 Ultralytics 的 .pt 文件，例如 yolov8n.pt；nc 不同时重置类别输出层。留空则从头训练。</translation>
    </message>
    <message>
        <source>Data-parallel training processes on this machine: 0 = one per GPU listed in device (one process on the CPU); 2 or more with device=cpu train together over Gloo.</source>
        <translation>本机上数据并行训练的进程数：0 = 设备（device）中列出的每个 GPU 一个进程（CPU 上只有一个进程）；设备为 CPU（device=cpu）时设为 2 或更多，这些进程通过 Gloo 一起训练。</translation>
    </message>
    <message>
        <source>Data-parallel training: BatchNorm normalises with the statistics of all ranks&apos; images (SyncBN) instead of each rank&apos;s own; no effect with one process.</source>
        <translation>数据并行训练：BatchNorm 使用所有进程的图像的统计量进行归一化（SyncBN），而不是每个进程各自的统计量；只有一个进程时无效。</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>export format: onnx (a graph for ONNX runtimes), or ultralytics (a .pt that Ultralytics 8.4 loads, to deploy with its exporters)</source>
        <translation>导出格式：onnx（供 ONNX 运行时使用的计算图），或 ultralytics（Ultralytics 8.4 可加载的 .pt，用其导出器部署）</translation>
    </message>
    <message>
        <source>square input side of the exported graph, a multiple of 32</source>
        <translation>导出计算图的正方形输入边长，须为 32 的倍数</translation>
    </message>
    <message>
        <source>Opset</source>
        <translation>Opset</translation>
    </message>
    <message>
        <source>ONNX opset version (11-17; 12 imports in OpenCV 4.6)</source>
        <translation>ONNX opset 版本（11-17；OpenCV 4.6 可导入 12）</translation>
    </message>
    <message>
        <source>Half-precision weights</source>
        <translation>半精度权重</translation>
    </message>
    <message>
        <source>store the weights as float16 (half the file); the graph still computes in float32</source>
        <translation>以 float16 存储权重（文件减半）；计算图仍以 float32 计算</translation>
    </message>
    <message>
        <source>Dynamic batch</source>
        <translation>动态批大小</translation>
    </message>
    <message>
        <source>symbolic batch dimension; the input size stays fixed (onnxruntime, TensorRT; OpenCV DNN runs batch 1)</source>
        <translation>符号化的批维度；输入尺寸保持固定（onnxruntime、TensorRT；OpenCV DNN 按批大小 1 运行）</translation>
    </message>
    <message>
        <source>Annotate shapes</source>
        <translation>存储中间张量形状</translation>
    </message>
    <message>
        <source>store every intermediate shape (value_info); the graph is written already folded, so nothing is left for onnxsim</source>
        <translation>存储每个中间张量的形状（value_info）；计算图写出时已折叠，onnxsim 无需再做处理</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>confidence threshold; a run&apos;s best.pt without conf= takes the run&apos;s best-F1 confidence (curves.json)</source>
        <translation>置信度阈值；未指定 conf= 时，训练运行的 best.pt 采用该运行的最佳 F1 置信度（curves.json）</translation>
    </message>
    <message>
        <source>IoU threshold</source>
        <translation>IoU 阈值</translation>
    </message>
    <message>
        <source>NMS IoU threshold</source>
        <translation>NMS 的 IoU 阈值</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>add: keep existing boxes; replace: replace earlier model boxes</source>
        <translation>add：保留已有的框；replace：替换先前由模型生成的框</translation>
    </message>
    <message>
        <source>Add missing classes</source>
        <translation>添加缺少的类别</translation>
    </message>
    <message>
        <source>add model classes the project lacks (auto: when it has none)</source>
        <translation>添加项目中缺少的模型类别（auto：仅当项目还没有类别时）</translation>
    </message>
    <message>
        <source>electricity per training hour, USD</source>
        <translation>每小时训练的电费（美元）</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>电费</translation>
    </message>
    <message>
        <source>USD/h</source>
        <translation>美元/小时</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>price of the machine, USD</source>
        <translation>机器的价格（美元）</translation>
    </message>
    <message>
        <source>USD</source>
        <translation>美元</translation>
    </message>
    <message>
        <source>Cloud GPU</source>
        <translation>云端 GPU</translation>
    </message>
    <message>
        <source>cloud price per GPU-hour, USD</source>
        <translation>云端每 GPU 小时的价格（美元）</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>training hours per day</source>
        <translation>每天的训练小时数</translation>
    </message>
    <message>
        <source>h/day</source>
        <translation>小时/天</translation>
    </message>
    <message>
        <source>NMS layout</source>
        <translation>NMS 输出布局</translation>
    </message>
    <message>
        <source>true: output [1, 4+nc, anchors] for NMS outside the graph (runs in OpenCV DNN); false: a YOLO26 model&apos;s end-to-end [1, 300, 6] from its one-to-one head (x1 y1 x2 y2 score class, no NMS; onnxruntime), as Ultralytics&apos; nms=False; other models have the first layout only</source>
        <translation>true：输出 [1, 4+nc, anchors]，NMS 在计算图之外进行（可在 OpenCV DNN 中运行）；false：YOLO26 模型由一对一检测头输出端到端的 [1, 300, 6]（x1 y1 x2 y2 分数 类别，无需 NMS；用 onnxruntime 运行），与 Ultralytics 的 nms=False 相同；其他模型只有第一种布局</translation>
    </message>
    <message>
        <source>Network: yolov8n/s/m/l/x, yolo11n/s/m/l/x or yolo26n/s/m/l/x (NMS-free head, trained with both head branches). n (nano) is fastest; s, m, l and x are larger, slower and usually more accurate.</source>
        <translation>网络：yolov8n/s/m/l/x、yolo11n/s/m/l/x 或 yolo26n/s/m/l/x（无需 NMS 的检测头，两个头分支一起训练）。n（nano）最快；s、m、l、x 更大、更慢，通常也更准确。</translation>
    </message>
    <message>
        <source>auto, SGD, AdamW or MuSGD. auto picks AdamW for short runs and, for long ones, SGD (YOLO26: MuSGD), with its own learning rate.</source>
        <translation>auto、SGD、AdamW 或 MuSGD。auto 对短的训练运行选 AdamW，对长的训练运行选 SGD（YOLO26：MuSGD），并使用自己的学习率。</translation>
    </message>
    <message>
        <source>Frames per second</source>
        <translation>每秒帧数</translation>
    </message>
    <message>
        <source>video frames kept per second of video (the first frame of each 1/fps s)</source>
        <translation>每秒视频保留的帧数（每 1/fps 秒取第一帧）</translation>
    </message>
    <message>
        <source>Every Nth frame</source>
        <translation>每隔 N 帧</translation>
    </message>
    <message>
        <source>keep every Nth video frame instead of fps= (0: use fps=)</source>
        <translation>改为每隔 N 帧保留一帧，代替 fps=（0：使用 fps=）</translation>
    </message>
    <message>
        <source>Start at</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>video time to start at: seconds (12.5) or [h:]mm:ss (1:30)</source>
        <translation>从视频的此时间开始：秒数（12.5）或 [时:]分:秒（1:30）</translation>
    </message>
    <message>
        <source>the beginning</source>
        <translation>视频开头</translation>
    </message>
    <message>
        <source>Stop before</source>
        <translation>在此之前停止</translation>
    </message>
    <message>
        <source>video time to stop before: seconds or [h:]mm:ss</source>
        <translation>在视频的此时间之前停止：秒数或 [时:]分:秒</translation>
    </message>
    <message>
        <source>the end</source>
        <translation>视频结尾</translation>
    </message>
    <message>
        <source>Near-duplicate threshold</source>
        <translation>近似重复阈值</translation>
    </message>
    <message>
        <source>skip a video frame whose perceptual hash is within this many bits (of 64) of a frame kept or already in the project; 0: keep near-duplicates</source>
        <translation>若视频帧的感知哈希与已保留或项目中已有的帧相差不超过此位数（共 64 位），则跳过该帧；0：保留近似重复帧</translation>
    </message>
    <message>
        <source>Images to pick</source>
        <translation>要挑选的图像数</translation>
    </message>
    <message>
        <source>images to pick</source>
        <translation>要挑选的图像数</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>uncertainty: where the model is least sure (ambiguous scores, disagreement with the mirrored image, two classes at one place), spread over scene groups; diversity: one image per scene group, no model; random: a seeded random pick</source>
        <translation>uncertainty：模型最没把握之处（分数模棱两可、与镜像图像不一致、同一位置出现两个类别），并分散到各场景组；diversity：每个场景组一张图像，无需模型；random：按种子随机挑选</translation>
    </message>
    <message>
        <source>Propose boxes</source>
        <translation>生成候选框</translation>
    </message>
    <message>
        <source>store the model&apos;s boxes on the picked images for review (source=model), as autolabel does</source>
        <translation>像自动标注一样，将模型在所选图像上的框存为待审核（source=model）</translation>
    </message>
    <message>
        <source>Edge manifest</source>
        <translation>边缘部署清单</translation>
    </message>
    <message>
        <source>onnx: also write &lt;name&gt;.json beside it for the edge device: classes, input size, output layout, the run&apos;s mAP and best-F1 confidence</source>
        <translation>onnx：同时在旁边写入供边缘设备使用的 &lt;name&gt;.json：类别、输入尺寸、输出布局、该运行的 mAP 和最佳 F1 置信度</translation>
    </message>
    <message>
        <source>Image cache</source>
        <translation>图像缓存</translation>
    </message>
    <message>
        <source>ram: keep every decoded, resized training image in RAM, so epochs after the first decode nothing (about imgsz x imgsz x 3 bytes per image; the run says how much and trains without it when the RAM is short); false: decode as needed.</source>
        <translation>ram：将每张解码并缩放后的训练图像保存在内存中，第一轮之后的各轮不再解码（每张图像约 imgsz x imgsz x 3 字节；运行开始时说明所需内存，内存不足时不用缓存训练）；false：按需解码。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::AnnotationEditor</name>
    <message>
        <source>Cannot read this image: %1</source>
        <translation>无法读取此图像：%1</translation>
    </message>
    <message>
        <source>No unlabeled image left in this list</source>
        <translation>此列表中已没有未标注的图像</translation>
    </message>
    <message>
        <source>Marked reviewed</source>
        <translation>已标记为已审核</translation>
    </message>
    <message>
        <source>Marked verified empty: this image has no objects</source>
        <translation>已标记为确认为空：此图像中没有目标</translation>
    </message>
    <message>
        <source>Class: %1</source>
        <translation>类别：%1</translation>
    </message>
</context>
<context>
    <name>osprey::ui::AnnotationSession</name>
    <message>
        <source>Add a class first (Class ▸ Add Class…)</source>
        <translation>请先添加类别（类别 ▸ 添加类别…）</translation>
    </message>
    <message>
        <source>The previous image has no boxes to paste</source>
        <translation>上一张图像没有可粘贴的框</translation>
    </message>
    <message>
        <source>This image has boxes, so it is not empty. Delete its boxes first.</source>
        <translation>此图像有框，因此不为空。请先删除它的框。</translation>
    </message>
    <message>
        <source>Copied 1 box</source>
        <translation>已复制 1 个框</translation>
    </message>
    <message>
        <source>Copied %1 boxes</source>
        <translation>已复制 %1 个框</translation>
    </message>
</context>
<context>
    <name>osprey::ui::AssistBar</name>
    <message>
        <source>Suggest (I)</source>
        <translation>建议 (I)</translation>
    </message>
    <message>
        <source>Run the model on this image</source>
        <translation>在此图像上运行模型</translation>
    </message>
    <message>
        <source>Every image</source>
        <translation>每张图像</translation>
    </message>
    <message>
        <source>Suggest boxes on every image as it opens (Shift+I)</source>
        <translation>每打开一张图像就建议框 (Shift+I)</translation>
    </message>
    <message>
        <source>Confidence: proposals scoring below it are hidden</source>
        <translation>置信度：得分低于此值的候选框会被隐藏</translation>
    </message>
    <message>
        <source>IoU: a proposal overlapping a better one of its class by more than this is hidden</source>
        <translation>IoU：与同类别更优候选框的交并比超过此值的候选框会被隐藏</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>IoU</source>
        <translation>IoU</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>suggesting…</source>
        <translation>正在建议…</translation>
    </message>
    <message>
        <source>1 proposal</source>
        <translation>1 个候选框</translation>
    </message>
    <message>
        <source>%1 proposals</source>
        <translation>%1 个候选框</translation>
    </message>
    <message>
        <source>The model that suggests boxes: an Osprey checkpoint (.pt), an ONNX detector or a Darknet .cfg with its .weights and names. The arrow offers to follow the training runs instead.</source>
        <translation>用于建议框的模型：Osprey 检查点 (.pt)、ONNX 检测器，或带 .weights 权重和类别名称的 Darknet .cfg。箭头菜单可改为跟随训练运行。</translation>
    </message>
    <message>
        <source>Choose Model File…</source>
        <translation>选择模型文件…</translation>
    </message>
    <message>
        <source>Follow the Active Training Run</source>
        <translation>跟随当前训练运行</translation>
    </message>
    <message>
        <source>Use the best.pt written last under this project&apos;s runs, and reload it each time training saves a better one</source>
        <translation>使用此项目的运行中最近写入的 best.pt，训练每保存一个更好的模型就重新加载</translation>
    </message>
    <message>
        <source>Review Queue</source>
        <translation>审核队列</translation>
    </message>
    <message>
        <source>Walk the images whose model boxes nobody has checked yet, likeliest mistakes first</source>
        <translation>逐一查看模型框尚未被检查的图像，最可能出错的优先</translation>
    </message>
    <message>
        <source>Waiting for a run…</source>
        <translation>等待运行…</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation>%1
%2</translation>
    </message>
</context>
<context>
    <name>osprey::ui::AssistController</name>
    <message>
        <source>Could not remember the model: %1</source>
        <translation>无法记住该模型：%1</translation>
    </message>
    <message>
        <source>Choose a Model for Suggestions</source>
        <translation>选择用于建议框的模型</translation>
    </message>
    <message>
        <source>Suggesting boxes with %1…</source>
        <translation>正在用 %1 建议框…</translation>
    </message>
    <message>
        <source>Suggestion failed: %1</source>
        <translation>建议失败：%1</translation>
    </message>
    <message>
        <source>Added the model&apos;s %1 classes to the project</source>
        <translation>已将模型的 %1 个类别添加到项目</translation>
    </message>
    <message>
        <source>None of the model&apos;s %1 classes is a class of this project</source>
        <translation>模型的 %1 个类别都不是此项目的类别</translation>
    </message>
    <message>
        <source>1 proposal: Enter accepts, X rejects, Shift+Enter accepts all</source>
        <translation>1 个候选框：Enter 接受，X 拒绝，Shift+Enter 全部接受</translation>
    </message>
    <message>
        <source>%1 proposals: Enter accepts, X rejects, Shift+Enter accepts all</source>
        <translation>%1 个候选框：Enter 接受，X 拒绝，Shift+Enter 全部接受</translation>
    </message>
    <message>
        <source>%1 of run %2</source>
        <translation>运行 %2 的 %1</translation>
    </message>
    <message>
        <source>Could not remember the setting: %1</source>
        <translation>无法记住该设置：%1</translation>
    </message>
    <message>
        <source>Following the training runs: no run has saved a best.pt yet; the first one will be loaded when it is written</source>
        <translation>正在跟随训练运行：还没有运行保存 best.pt；第一个写入后将被加载</translation>
    </message>
    <message>
        <source>Following run %1: using its best.pt saved at %2</source>
        <translation>正在跟随运行 %1：使用其保存于 %2 的 best.pt</translation>
    </message>
    <message>
        <source>Confidence %1: where this model&apos;s run found the best F1</source>
        <translation>置信度 %1：此模型的训练运行在该处取得最佳 F1</translation>
    </message>
</context>
<context>
    <name>osprey::ui::AutoLabelDialog</name>
    <message>
        <source>Auto-Label Images</source>
        <translation>自动标注图像</translation>
    </message>
    <message>
        <source>No model yet: choose an Osprey checkpoint, ONNX or Darknet model</source>
        <translation>尚无模型：请选择 Osprey 检查点、ONNX 或 Darknet 模型</translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation>选择(&amp;H)…</translation>
    </message>
    <message>
        <source>Class &amp;Mapping…</source>
        <translation>类别映射(&amp;M)…</translation>
    </message>
    <message>
        <source>Which project class each model class becomes, or ignore it</source>
        <translation>每个模型类别对应哪个项目类别，或忽略它</translation>
    </message>
    <message>
        <source>Unlabeled images (status new)</source>
        <translation>未标注的图像（状态为“新”）</translation>
    </message>
    <message>
        <source>All images</source>
        <translation>所有图像</translation>
    </message>
    <message>
        <source>Train split</source>
        <translation>训练集</translation>
    </message>
    <message>
        <source>Validation split</source>
        <translation>验证集</translation>
    </message>
    <message>
        <source>Test split</source>
        <translation>测试集</translation>
    </message>
    <message>
        <source>Add to the existing boxes</source>
        <translation>添加到现有框</translation>
    </message>
    <message>
        <source>Replace earlier model boxes</source>
        <translation>替换先前的模型框</translation>
    </message>
    <message>
        <source>Automatic: only when the project has no classes yet</source>
        <translation>自动：仅当项目还没有类别时</translation>
    </message>
    <message>
        <source>Yes: add the model classes the project lacks</source>
        <translation>是：添加项目缺少的模型类别</translation>
    </message>
    <message>
        <source>No: ignore the model classes the project lacks</source>
        <translation>否：忽略项目缺少的模型类别</translation>
    </message>
    <message>
        <source>M&amp;odel:</source>
        <translation>模型(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;Images:</source>
        <translation>图像(&amp;I)：</translation>
    </message>
    <message>
        <source>Choose the images and thresholds, then Start.</source>
        <translation>请选择图像和阈值，然后点击“开始”。</translation>
    </message>
    <message>
        <source>The summary of the run appears here.</source>
        <translation>本次运行的摘要会显示在这里。</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Stop after the current batch; the images labelled so far keep their boxes</source>
        <translation>在当前批次之后停止；已标注的图像保留其框</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>&amp;Review Them</source>
        <translation>审核它们(&amp;R)</translation>
    </message>
    <message>
        <source>Close this dialog and walk the images that got boxes, the least confident first (the review queue)</source>
        <translation>关闭此对话框并逐一查看获得框的图像，置信度最低的优先（审核队列）</translation>
    </message>
    <message>
        <source>Weights: %1</source>
        <translation>权重：%1</translation>
    </message>
    <message>
        <source>Class names: %1</source>
        <translation>类别名称：%1</translation>
    </message>
    <message>
        <source>Cannot count the images: %1</source>
        <translation>无法统计图像数：%1</translation>
    </message>
    <message>
        <source>No image matches: nothing to do.</source>
        <translation>没有匹配的图像：无需处理。</translation>
    </message>
    <message>
        <source>Images to process: %1</source>
        <translation>待处理图像：%1</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Cannot open the project: %1</source>
        <translation>无法打开项目：%1</translation>
    </message>
    <message>
        <source>Cannot load the model.
%1
Pick another model with the Choose… button.</source>
        <translation>无法加载模型。
%1
请用“选择…”按钮挑选其他模型。</translation>
    </message>
    <message>
        <source>Model loaded; running it on the first batch of images…</source>
        <translation>模型已加载；正在第一批图像上运行…</translation>
    </message>
    <message>
        <source>%1 / %2 images, %3 images/s</source>
        <translation>%1 / %2 张图像，%3 张/秒</translation>
    </message>
    <message>
        <source>, under a second left</source>
        <translation>，剩余不到一秒</translation>
    </message>
    <message>
        <source>, about %1 left</source>
        <translation>，约剩 %1</translation>
    </message>
    <message>
        <source>Stopping after the current batch…</source>
        <translation>将在当前批次之后停止…</translation>
    </message>
    <message>
        <source>Auto-label failed.</source>
        <translation>自动标注失败。</translation>
    </message>
    <message>
        <source>Images processed before the error keep their boxes: %1.</source>
        <translation>出错前已处理的图像保留其框：%1。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>已完成。</translation>
    </message>
    <message>
        <source>Stop Auto-Label?</source>
        <translation>停止自动标注？</translation>
    </message>
    <message>
        <source>Auto-label is still running. Stop it after the current batch and close?
The images processed so far keep their boxes.</source>
        <translation>自动标注仍在运行。要在当前批次之后停止并关闭吗？
已处理的图像保留其框。</translation>
    </message>
    <message>
        <source>Choose a Model for Auto-Label</source>
        <translation>选择用于自动标注的模型</translation>
    </message>
</context>
<context>
    <name>osprey::ui::AutoLabelSummary</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>Processed: %1 of %2 images in %3 (%4 images/s)</source>
        <translation>已处理：%1 / %2 张图像，用时 %3（%4 张/秒）</translation>
    </message>
    <message>
        <source>Images that received boxes: %1</source>
        <translation>获得框的图像：%1</translation>
    </message>
    <message>
        <source>Boxes stored (source: model, with their scores): %1</source>
        <translation>已存储的框（来源：模型，附带得分）：%1</translation>
    </message>
    <message>
        <source>Reviewed images that received boxes and went back to labeled, for review: %1</source>
        <translation>获得框而退回为已标注、需要审核的已审核图像：%1</translation>
    </message>
    <message>
        <source>Images skipped because they could not be read: %1</source>
        <translation>因无法读取而跳过的图像：%1</translation>
    </message>
    <message>
        <source>  … and %1 more</source>
        <translation>  … 以及另外 %1 项</translation>
    </message>
    <message>
        <source>Stopped early: the processed images keep their boxes. Images left unchanged: %1</source>
        <translation>已提前停止：已处理的图像保留其框。未改动的图像：%1</translation>
    </message>
    <message>
        <source>Auto-label is not on the undo stack. Delete unwanted boxes in the editor, or run again with &quot;Replace earlier model boxes&quot;.</source>
        <translation>自动标注不在撤销栈中。请在编辑器中删除不需要的框，或选择“替换先前的模型框”再运行一次。</translation>
    </message>
    <message>
        <source>Replace mode: the editor&apos;s undo history is cleared, since it may refer to replaced model boxes.</source>
        <translation>替换模式：编辑器的撤销历史已清空，因为其中可能引用了被替换的模型框。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::BoxCanvas</name>
    <message>
        <source>No project open

File ▸ Open Project… (Ctrl+O)
File ▸ New Project… (Ctrl+N)</source>
        <translation>未打开项目

文件 ▸ 打开项目… (Ctrl+O)
文件 ▸ 新建项目… (Ctrl+N)</translation>
    </message>
    <message>
        <source>Select an image in the list</source>
        <translation>请在列表中选择一张图像</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>   next box: %1</source>
        <translation>   下一个框：%1</translation>
    </message>
    <message>
        <source>   boxes hidden (H)</source>
        <translation>   框已隐藏 (H)</translation>
    </message>
    <message>
        <source>%1   %2 × %3   %4   %5   %6%</source>
        <translation>%1   %2 × %3   %4   %5   %6%</translation>
    </message>
    <message>
        <source>1 box</source>
        <translation>1 个框</translation>
    </message>
    <message>
        <source>%1 boxes</source>
        <translation>%1 个框</translation>
    </message>
    <message>
        <source>%1 · frame %2 · %3</source>
        <translation>%1 · 第 %2 帧 · %3</translation>
    </message>
</context>
<context>
    <name>osprey::ui::BreakEvenBox</name>
    <message>
        <source>Buy or rent: break-even</source>
        <translation>买还是租：回本点</translation>
    </message>
    <message>
        <source>Left out: cooling, idle power, repairs, financing, resale value and the owner&apos;s time.</source>
        <translation>未计入：散热、待机功耗、维修、融资、转售价值和机主的时间。</translation>
    </message>
    <message>
        <source>It assumes the owned GPU trains as fast as the cloud one.</source>
        <translation>假设自有 GPU 的训练速度与云端相同。</translation>
    </message>
    <message>
        <source>Buying wins when the GPU is busy almost continuously, or when the hardware is already owned.</source>
        <translation>GPU 几乎一直在用，或硬件已经到手时，购买更划算。</translation>
    </message>
    <message>
        <source>The cloud price is not above the power cost: buying never pays off.</source>
        <translation>云端价格不高于电费：购买永远不会回本。</translation>
    </message>
    <message>
        <source>Check the inputs.</source>
        <translation>请检查输入。</translation>
    </message>
    <message>
        <source>Break-even after about %1 h of training (%2 h): %3 months at %4 h/day, %5 months at 24 h/day (30-day months).</source>
        <translation>训练约 %1 小时后回本（%2 小时）：每天 %4 小时为 %3 个月，每天 24 小时为 %5 个月（每月按 30 天）。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::CheatSheetDialog</name>
    <message>
        <source>Keyboard Shortcuts Cheat Sheet</source>
        <translation>快捷键速查表</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <source>Drag on empty space</source>
        <translation>在空白处拖动</translation>
    </message>
    <message>
        <source>Draw a box</source>
        <translation>绘制框</translation>
    </message>
    <message>
        <source>Click / Ctrl+click</source>
        <translation>单击 / Ctrl+单击</translation>
    </message>
    <message>
        <source>Select a box / add to the selection</source>
        <translation>选择框 / 加入选择</translation>
    </message>
    <message>
        <source>Click again</source>
        <translation>再次单击</translation>
    </message>
    <message>
        <source>Select the next of several overlapping boxes</source>
        <translation>选择多个重叠框中的下一个</translation>
    </message>
    <message>
        <source>Shift+drag</source>
        <translation>Shift+拖动</translation>
    </message>
    <message>
        <source>Select the boxes inside a rectangle</source>
        <translation>选择矩形内的框</translation>
    </message>
    <message>
        <source>Drag a box / a handle</source>
        <translation>拖动框 / 控制点</translation>
    </message>
    <message>
        <source>Move it / resize it</source>
        <translation>移动 / 调整大小</translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation>滚轮</translation>
    </message>
    <message>
        <source>Zoom around the cursor</source>
        <translation>以光标为中心缩放</translation>
    </message>
    <message>
        <source>Space+drag or middle drag</source>
        <translation>Space+拖动或中键拖动</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Mouse</source>
        <translation>鼠标</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ClassMappingDialog</name>
    <message>
        <source>Class Mapping for %1</source>
        <translation>%1 的类别映射</translation>
    </message>
    <message>
        <source>Reading the classes of %1…</source>
        <translation>正在读取 %1 的类别…</translation>
    </message>
    <message>
        <source>Model class</source>
        <translation>模型类别</translation>
    </message>
    <message>
        <source>Project class</source>
        <translation>项目类别</translation>
    </message>
    <message>
        <source>Boxes of ignored classes are not stored. The mapping is saved in the project for this model file and used by every later auto-label run, in the application and in osprey-cli.</source>
        <translation>被忽略类别的框不会被存储。该映射按此模型文件保存在项目中，之后在应用程序和 osprey-cli 中的每次自动标注运行都会使用它。</translation>
    </message>
    <message>
        <source>&amp;Match by Name</source>
        <translation>按名称匹配(&amp;M)</translation>
    </message>
    <message>
        <source>Map every model class to the project class of the same name, ignoring the saved mapping</source>
        <translation>将每个模型类别映射到同名的项目类别，忽略已保存的映射</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Cannot read the classes of %1: %2</source>
        <translation>无法读取 %1 的类别：%2</translation>
    </message>
    <message>
        <source>Cannot read the saved class mapping: %1</source>
        <translation>无法读取已保存的类别映射：%1</translation>
    </message>
    <message>
        <source>Project class for %1</source>
        <translation>%1 对应的项目类别</translation>
    </message>
    <message>
        <source>(ignore)</source>
        <translation>（忽略）</translation>
    </message>
    <message>
        <source>(add as new class)</source>
        <translation>（添加为新类别）</translation>
    </message>
    <message>
        <source>Cannot add the new classes: %1</source>
        <translation>无法添加新类别：%1</translation>
    </message>
    <message>
        <source>Cannot save the class mapping: %1</source>
        <translation>无法保存类别映射：%1</translation>
    </message>
    <message>
        <source>Mapped: %1 of %2 model classes; the others are ignored.</source>
        <translation>已映射：%1 / %2 个模型类别；其余的将被忽略。</translation>
    </message>
    <message>
        <source>Classes to add to the project on Save: %1.</source>
        <translation>保存时要添加到项目的类别：%1。</translation>
    </message>
    <message>
        <source>Filter classes (Ctrl+F)</source>
        <translation>筛选类别 (Ctrl+F)</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ClassPanel</name>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Boxes</source>
        <translation>框</translation>
    </message>
    <message>
        <source>Click: use this class for new boxes. Double-click: rename.</source>
        <translation>单击：新框使用此类别。双击：重命名。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Add a class</source>
        <translation>添加类别</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>Change the colour of the selected class</source>
        <translation>更改所选类别的颜色</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move the selected class up (its digit key changes)</source>
        <translation>上移所选类别（其数字键会改变）</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Move the selected class down (its digit key changes)</source>
        <translation>下移所选类别（其数字键会改变）</translation>
    </message>
    <message>
        <source>Key %1 gives the selected boxes this class</source>
        <translation>按键 %1 将所选框设为此类别</translation>
    </message>
    <message>
        <source>Add Class</source>
        <translation>添加类别</translation>
    </message>
    <message>
        <source>Class name:</source>
        <translation>类别名称：</translation>
    </message>
    <message>
        <source>Class Colour</source>
        <translation>类别颜色</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ClassPickerDialog</name>
    <message>
        <source>Choose Class</source>
        <translation>选择类别</translation>
    </message>
    <message>
        <source>Type to search classes…</source>
        <translation>输入以搜索类别…</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ConfusionMatrixDialog</name>
    <message>
        <source>Confusion Matrix — %1</source>
        <translation>混淆矩阵 — %1</translation>
    </message>
    <message>
        <source>Normalise each row (labelled class)</source>
        <translation>按行归一化（标注类别）</translation>
    </message>
    <message>
        <source>Reading the validation results…</source>
        <translation>正在读取验证结果…</translation>
    </message>
    <message>
        <source>Epoch:</source>
        <translation>轮：</translation>
    </message>
    <message>
        <source>Rows: the labelled class. Columns: the detected class.</source>
        <translation>行：标注的类别。列：检测到的类别。</translation>
    </message>
    <message>
        <source>Cannot read the validation results: %1</source>
        <translation>无法读取验证结果：%1</translation>
    </message>
    <message>
        <source>No epoch of this run has been validated yet.</source>
        <translation>此运行还没有任何一轮完成验证。</translation>
    </message>
    <message>
        <source>background</source>
        <translation>背景</translation>
    </message>
    <message>
        <source>Labelled %1, detected %2: %3 boxes in %4 images. Click to open them in the editor.</source>
        <translation>标注为 %1、检测为 %2：%4 张图像中的 %3 个框。点击在编辑器中打开这些图像。</translation>
    </message>
    <message>
        <source>Epoch %1, %2 val images. A box counts where its detection (confidence above %3, IoU above %4) lands; a missed box in the background column, a false positive in the background row. Click a cell to walk its images in the editor.</source>
        <translation>第 %1 轮，%2 张验证图像。每个框计入其检测结果（置信度高于 %3、IoU 高于 %4）所在的格；漏检的框计入背景列，误检计入背景行。点击一个格可在编辑器中逐一查看其图像。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::DatasetActions</name>
    <message>
        <source>&amp;Dataset</source>
        <translation>数据集(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Split…</source>
        <translation>划分(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Health Check</source>
        <translation>健康检查(&amp;H)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+H</source>
        <translation>Ctrl+Shift+H</translation>
    </message>
    <message>
        <source>S&amp;tatistics</source>
        <translation>统计(&amp;T)</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>健康检查</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>Import &amp;Videos…</source>
        <translation>导入视频(&amp;V)…</translation>
    </message>
</context>
<context>
    <name>osprey::ui::EditQueue</name>
    <message>
        <source>This project is read-only: the edit was not stored</source>
        <translation>此项目为只读：编辑未被保存</translation>
    </message>
    <message>
        <source>The edit was not stored: %1</source>
        <translation>编辑未保存：%1</translation>
    </message>
    <message>
        <source>The step could not be undone or redone: %1. The undo history no longer fits the project and was cleared.</source>
        <translation>无法撤销或重做此步骤：%1。撤销历史已与项目不符，已被清除。</translation>
    </message>
    <message>
        <source>A kept edit was dropped: %1</source>
        <translation>一处保留的编辑已被丢弃：%1</translation>
    </message>
    <message>
        <source>The kept edits are saved now</source>
        <translation>保留的编辑现已保存</translation>
    </message>
    <message>
        <source>&amp;Undo Unsaved Edit</source>
        <translation>撤销未保存的编辑(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo (waits for the kept edits)</source>
        <translation>撤销（等待保留的编辑）(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo %1</source>
        <translation>撤销 %1(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo Unsaved Edit</source>
        <translation>重做未保存的编辑(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Redo %1</source>
        <translation>重做 %1(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Undo waits until the kept edits are saved: the database does not hold them yet</source>
        <translation>撤销需等待保留的编辑保存完毕：数据库中还没有它们</translation>
    </message>
    <message>
        <source>Took back an edit that was not saved yet</source>
        <translation>已撤回一处尚未保存的编辑</translation>
    </message>
    <message>
        <source>Redo waits until the kept edits are saved: the database does not hold them yet</source>
        <translation>重做需等待保留的编辑保存完毕：数据库中还没有它们</translation>
    </message>
</context>
<context>
    <name>osprey::ui::EditorActions</name>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Image</source>
        <translation>图像(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Class</source>
        <translation>类别(&amp;C)</translation>
    </message>
    <message>
        <source>Keyboard &amp;Cheat Sheet</source>
        <translation>快捷键速查表(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Draw Box</source>
        <translation>绘制框(&amp;D)</translation>
    </message>
    <message>
        <source>De&amp;lete Box</source>
        <translation>删除框(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Copy Boxes</source>
        <translation>复制框(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste Boxes</source>
        <translation>粘贴框(&amp;P)</translation>
    </message>
    <message>
        <source>Paste Boxes from &amp;Previous Image</source>
        <translation>粘贴上一张图像的框(&amp;P)</translation>
    </message>
    <message>
        <source>Select &amp;All Boxes</source>
        <translation>选择所有框(&amp;A)</translation>
    </message>
    <message>
        <source>Select &amp;Next Box</source>
        <translation>选择下一个框(&amp;N)</translation>
    </message>
    <message>
        <source>N&amp;udge</source>
        <translation>微移(&amp;U)</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>向左</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>向右</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>向上</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>向下</translation>
    </message>
    <message>
        <source>%1 by %2 px</source>
        <translation>%1（%2 px）</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts…</source>
        <translation>快捷键(&amp;K)…</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Actual Pixels (1:1)</source>
        <translation>实际像素 (1:1)(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Hide Boxes</source>
        <translation>隐藏框(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Next Image</source>
        <translation>下一张图像(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Image</source>
        <translation>上一张图像(&amp;P)</translation>
    </message>
    <message>
        <source>Next &amp;Unlabeled Image</source>
        <translation>下一张未标注图像(&amp;U)</translation>
    </message>
    <message>
        <source>Mark &amp;Reviewed</source>
        <translation>标记为已审核(&amp;R)</translation>
    </message>
    <message>
        <source>Mark &amp;Verified Empty (No Objects)</source>
        <translation>标记为确认为空（无目标）(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Choose Class…</source>
        <translation>选择类别(&amp;C)…</translation>
    </message>
    <message>
        <source>Class %1</source>
        <translation>类别 %1</translation>
    </message>
    <message>
        <source>Class %1: %2</source>
        <translation>类别 %1：%2</translation>
    </message>
    <message>
        <source>Model &amp;Proposals</source>
        <translation>模型候选框(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Suggest Boxes</source>
        <translation>建议框(&amp;S)</translation>
    </message>
    <message>
        <source>Suggest on &amp;Every Image</source>
        <translation>在每张图像上建议(&amp;E)</translation>
    </message>
    <message>
        <source>Choose &amp;Model…</source>
        <translation>选择模型(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Accept Proposal</source>
        <translation>接受候选框(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Reject Proposal</source>
        <translation>拒绝候选框(&amp;R)</translation>
    </message>
    <message>
        <source>Accept A&amp;ll Proposals</source>
        <translation>接受所有候选框(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Clear Proposals</source>
        <translation>清除候选框(&amp;C)</translation>
    </message>
    <message>
        <source>Auto-Label &amp;Images…</source>
        <translation>自动标注图像(&amp;I)…</translation>
    </message>
    <message>
        <source>Class Ma&amp;pping…</source>
        <translation>类别映射(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Follow the Active Training Run</source>
        <translation>跟随当前训练运行(&amp;F)</translation>
    </message>
    <message>
        <source>Use the best.pt written last under the project&apos;s runs, reloaded each time training saves a better one</source>
        <translation>使用项目的运行中最近写入的 best.pt，训练每保存一个更好的模型就重新加载</translation>
    </message>
    <message>
        <source>Choose Images to Label &amp;Next…</source>
        <translation>选择接下来要标注的图像(&amp;N)…</translation>
    </message>
</context>
<context>
    <name>osprey::ui::EditorBanner</name>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>This project is read-only: its folder cannot be written. You can look at it, but edits are not stored.</source>
        <translation>此项目为只读：其文件夹无法写入。可以查看，但编辑不会被保存。</translation>
    </message>
    <message>
        <source>1 edit not saved yet: another program is writing to this project (an import or auto-label run?). It is kept and saved as soon as that has finished.</source>
        <translation>1 处编辑尚未保存：另一个程序正在写入此项目（导入或自动标注运行？）。它已保留，待对方完成后立即保存。</translation>
    </message>
    <message>
        <source>%1 edits not saved yet: another program is writing to this project (an import or auto-label run?). They are kept and saved as soon as that has finished.</source>
        <translation>%1 处编辑尚未保存：另一个程序正在写入此项目（导入或自动标注运行？）。它们已保留，待对方完成后立即保存。</translation>
    </message>
    <message>
        <source>1 edit could not be saved: the disk is full. It is kept: free some space, then press Retry.</source>
        <translation>1 处编辑无法保存：磁盘已满。它已保留：请释放一些空间，然后点击“重试”。</translation>
    </message>
    <message>
        <source>%1 edits could not be saved: the disk is full. They are kept: free some space, then press Retry.</source>
        <translation>%1 处编辑无法保存：磁盘已满。它们已保留：请释放一些空间，然后点击“重试”。</translation>
    </message>
    <message>
        <source>1 edit could not be saved: %1. It is kept: press Retry to save it.</source>
        <translation>1 处编辑无法保存：%1。它已保留：点击“重试”即可保存。</translation>
    </message>
    <message>
        <source>%1 edits could not be saved: %2. They are kept: press Retry to save them.</source>
        <translation>%1 处编辑无法保存：%2。它们已保留：点击“重试”即可保存。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ExportDialog</name>
    <message>
        <source>Export Dataset</source>
        <translation>导出数据集</translation>
    </message>
    <message>
        <source>Output folder (created when missing)</source>
        <translation>输出文件夹（不存在时自动创建）</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>Link to the project&apos;s images</source>
        <translation>链接到项目的图像</translation>
    </message>
    <message>
        <source>Copy the images</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <source>Labels only</source>
        <translation>仅标注</translation>
    </message>
    <message>
        <source>Leave out images that are not labeled yet</source>
        <translation>不包含尚未标注的图像</translation>
    </message>
    <message>
        <source>Keep them (with empty labels)</source>
        <translation>保留（使用空标注）</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Destination:</source>
        <translation>目标位置：</translation>
    </message>
    <message>
        <source>Images:</source>
        <translation>图像：</translation>
    </message>
    <message>
        <source>Unlabeled images:</source>
        <translation>未标注的图像：</translation>
    </message>
    <message>
        <source>Verified-empty images are exported with empty label files.</source>
        <translation>确认为空的图像将以空的标注文件导出。</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Export to</source>
        <translation>导出到</translation>
    </message>
    <message>
        <source>Choose a destination folder first.</source>
        <translation>请先选择目标文件夹。</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ExportModelDialog</name>
    <message>
        <source>Export Model</source>
        <translation>导出模型</translation>
    </message>
    <message>
        <source>best.pt, last.pt or an Ultralytics .pt</source>
        <translation>best.pt、last.pt 或 Ultralytics 的 .pt</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>next to the weights, as .onnx</source>
        <translation>与权重文件同目录，扩展名为 .onnx</translation>
    </message>
    <message>
        <source>Weights:</source>
        <translation>权重：</translation>
    </message>
    <message>
        <source>ONNX file:</source>
        <translation>ONNX 文件：</translation>
    </message>
    <message>
        <source>Writes input &quot;images&quot; [1, 3, size, size] and output &quot;output0&quot; [1, 4 + classes, anchors], as Ultralytics does; the file is checked in OpenCV DNN before it is written.</source>
        <translation>与 Ultralytics 一样，写入输入图像张量 &quot;images&quot; [1, 3, 尺寸, 尺寸] 和输出 &quot;output0&quot; [1, 4 + 类别数, 锚点数]；文件写入前会先在 OpenCV DNN 中检查。</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Weights to Export</source>
        <translation>要导出的权重</translation>
    </message>
    <message>
        <source>Weights (*.pt);;All files (*)</source>
        <translation>权重 (*.pt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>ONNX File</source>
        <translation>ONNX 文件</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx);;All files (*)</source>
        <translation>ONNX 模型 (*.onnx);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Choose the weights to export.</source>
        <translation>请选择要导出的权重。</translation>
    </message>
    <message>
        <source>The image size must be a multiple of 32 (the largest stride).</source>
        <translation>图像尺寸必须是 32（最大步幅）的倍数。</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>Wrote %1 (%2 MB, opset %3, %4 classes) in %5 s.</source>
        <translation>已写入 %1（%2 MB，opset %3，%4 个类别），用时 %5 秒。</translation>
    </message>
    <message>
        <source>ONNX (.onnx)</source>
        <translation>ONNX 模型 (.onnx)</translation>
    </message>
    <message>
        <source>Ultralytics checkpoint (.pt)</source>
        <translation>Ultralytics 检查点 (.pt)</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Checkpoint file:</source>
        <translation>检查点文件：</translation>
    </message>
    <message>
        <source>next to the weights, as &lt;name&gt;-ultralytics.pt</source>
        <translation>与权重文件同目录，名为 &lt;name&gt;-ultralytics.pt</translation>
    </message>
    <message>
        <source>Writes the network as Ultralytics 8.4 stores a finished model (EMA weights in float16): YOLO(&quot;file.pt&quot;) loads it, and Ultralytics&apos; validation, prediction and exporters (TensorRT, OpenVINO, CoreML, TFLite, ...) take it.</source>
        <translation>按 Ultralytics 8.4 保存训练完成模型的方式写出网络（EMA 权重，float16）：YOLO(&quot;file.pt&quot;) 可直接加载，Ultralytics 的验证、预测和导出器（TensorRT、OpenVINO、CoreML、TFLite 等）都能使用。</translation>
    </message>
    <message>
        <source>Ultralytics Checkpoint</source>
        <translation>Ultralytics 检查点</translation>
    </message>
    <message>
        <source>PyTorch checkpoints (*.pt);;All files (*)</source>
        <translation>PyTorch 检查点 (*.pt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Writing the Ultralytics checkpoint…</source>
        <translation>正在写出 Ultralytics 检查点…</translation>
    </message>
    <message>
        <source>Wrote %1 (%2 MB, %3). Ultralytics 8.4 loads it as its own.</source>
        <translation>已写出 %1（%2 MB，%3）。Ultralytics 8.4 可将其作为自己的文件加载。</translation>
    </message>
    <message>
        <source>the EMA weights</source>
        <translation>EMA 权重</translation>
    </message>
    <message>
        <source>the model weights</source>
        <translation>模型权重</translation>
    </message>
</context>
<context>
    <name>osprey::ui::GpuProbe</name>
    <message>
        <source>no NVIDIA GPU found</source>
        <translation>未找到 NVIDIA GPU</translation>
    </message>
    <message>
        <source>no NVIDIA GPU: %1</source>
        <translation>没有 NVIDIA GPU：%1</translation>
    </message>
    <message>
        <source>GPU %1: %2 (%3 GB)</source>
        <translation>GPU %1：%2（%3 GB）</translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation>GPU %1：%2</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
</context>
<context>
    <name>osprey::ui::HealthPanel</name>
    <message>
        <source>imgsz </source>
        <translation>imgsz </translation>
    </message>
    <message>
        <source>Training size: boxes smaller than 4 px at this size are reported</source>
        <translation>训练尺寸：在此尺寸下小于 4 px 的框会被报告</translation>
    </message>
    <message>
        <source>Decode images</source>
        <translation>解码图像</translation>
    </message>
    <message>
        <source>Decode every image to find corrupt files (slower)</source>
        <translation>解码每张图像以找出损坏的文件（较慢）</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Run the check to find missing or corrupt images, bad boxes and duplicates.</source>
        <translation>运行检查以找出缺失或损坏的图像、有问题的框和重复项。</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>The check did not finish: %1</source>
        <translation>检查未完成：%1</translation>
    </message>
    <message>
        <source>%1 images, %2 boxes: no errors found.</source>
        <translation>%1 张图像，%2 个框：未发现错误。</translation>
    </message>
    <message>
        <source>%1 images, %2 boxes: problems found; errors block training.</source>
        <translation>%1 张图像，%2 个框：发现问题；错误会阻止训练。</translation>
    </message>
    <message>
        <source>Double-click to open this image</source>
        <translation>双击打开此图像</translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s)</source>
        <translation>
            <numerusform>%n 个检查结果</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageListDelegate</name>
    <message>
        <source>1 box</source>
        <translation>1 个框</translation>
    </message>
    <message>
        <source>%1 boxes</source>
        <translation>%1 个框</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageListModel</name>
    <message>
        <source>%1
%2 x %3 px, %4, %5 boxes, split %6</source>
        <translation>%1
%2 x %3 px，%4，%5 个框，子集 %6</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新</translation>
    </message>
    <message>
        <source>labeled</source>
        <translation>已标注</translation>
    </message>
    <message>
        <source>reviewed</source>
        <translation>已审核</translation>
    </message>
    <message>
        <source>verified empty</source>
        <translation>确认为空</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练集</translation>
    </message>
    <message>
        <source>val</source>
        <translation>验证集</translation>
    </message>
    <message>
        <source>test</source>
        <translation>测试集</translation>
    </message>
    <message>
        <source>none</source>
        <translation>未划分</translation>
    </message>
    <message>
        <source>(image %1 was deleted)</source>
        <translation>（图像 %1 已被删除）</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageListPanel</name>
    <message>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <source>Any split</source>
        <translation>任意子集</translation>
    </message>
    <message>
        <source>Show only images with this status</source>
        <translation>仅显示此状态的图像</translation>
    </message>
    <message>
        <source>Show only images in this split</source>
        <translation>仅显示此子集中的图像</translation>
    </message>
    <message>
        <source>Show only images with at least one box of this class</source>
        <translation>仅显示至少有一个此类别框的图像</translation>
    </message>
    <message>
        <source>Any class</source>
        <translation>任意类别</translation>
    </message>
    <message>
        <source>%1 of %2 images</source>
        <translation>%1 / %2 张图像</translation>
    </message>
    <message>
        <source>Show All</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <source>Leave this order and show the filtered image list again</source>
        <translation>退出此顺序，重新显示筛选后的图像列表</translation>
    </message>
    <message>
        <source>%1 images in this order (%2 in the project)</source>
        <translation>此顺序中有 %1 张图像（项目中共 %2 张）</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImportDialog</name>
    <message>
        <source>Import Dataset</source>
        <translation>导入数据集</translation>
    </message>
    <message>
        <source>A dataset folder (YOLO, VOC, images) or a COCO JSON file</source>
        <translation>数据集文件夹（YOLO、VOC、图像）或 COCO JSON 文件</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <source>Optional: where the images are, when not beside the labels</source>
        <translation>可选：图像不在标注文件旁边时，图像所在的位置</translation>
    </message>
    <message>
        <source>Keep, flagged as crowd (evaluation ignores them)</source>
        <translation>保留，标记为 crowd（评估时忽略）</translation>
    </message>
    <message>
        <source>Skip them</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Strict: abort on any problem, warnings included</source>
        <translation>严格：出现任何问题（包括警告）都中止</translation>
    </message>
    <message>
        <source>By default valid items are imported and every skipped item is listed. In strict mode any problem aborts and the project stays exactly as it was.</source>
        <translation>默认导入有效的条目，并列出每个被跳过的条目。严格模式下任何问题都会中止导入，项目保持原样。</translation>
    </message>
    <message>
        <source>Follow paths that lead outside the source folder (outside=true)</source>
        <translation>跟随指向来源文件夹之外的路径（outside=true）</translation>
    </message>
    <message>
        <source>A data.yaml&apos;s path: or a COCO file_name may point outside the source folder. By default only a relative data.yaml path: to a dataset folder (images/ and labels/) is followed; tick this to follow any such path.</source>
        <translation>data.yaml 的 path: 或 COCO 的 file_name 可能指向来源文件夹之外。默认只跟随 data.yaml 中指向数据集文件夹（含图像 images/ 与标注 labels/）的相对 path:；勾选后跟随所有这类路径。</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Images folder:</source>
        <translation>图像文件夹：</translation>
    </message>
    <message>
        <source>COCO crowd boxes:</source>
        <translation>COCO crowd 框：</translation>
    </message>
    <message>
        <source>Choose a source, then Preview.</source>
        <translation>请选择来源，然后点击“预览”。</translation>
    </message>
    <message>
        <source>The preview and the import summary appear here.</source>
        <translation>预览和导入摘要会显示在这里。</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Dataset folder</source>
        <translation>数据集文件夹</translation>
    </message>
    <message>
        <source>Annotation file</source>
        <translation>标注文件</translation>
    </message>
    <message>
        <source>Annotations (*.json *.yaml *.yml *.data *.txt);;All files (*)</source>
        <translation>标注文件 (*.json *.yaml *.yml *.data *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Choose a source first.</source>
        <translation>请先选择来源。</translation>
    </message>
    <message>
        <source>Reading the source…</source>
        <translation>正在读取来源…</translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <source>Import failed; the project is unchanged.</source>
        <translation>导入失败；项目未改变。</translation>
    </message>
    <message>
        <source>Cannot read the source.</source>
        <translation>无法读取来源。</translation>
    </message>
    <message>
        <source>Import finished.</source>
        <translation>导入完成。</translation>
    </message>
    <message>
        <source>Preview of the source (nothing imported yet).</source>
        <translation>来源预览（尚未导入任何内容）。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::LabelNextDialog</name>
    <message>
        <source>Choose Images to Label Next</source>
        <translation>选择接下来要标注的图像</translation>
    </message>
    <message>
        <source>No model yet: choose the model you train (best.pt), an ONNX or Darknet model</source>
        <translation>尚无模型：请选择您训练的模型（best.pt）、ONNX 或 Darknet 模型</translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation>选择(&amp;H)…</translation>
    </message>
    <message>
        <source>Where the model is least sure, spread over scenes</source>
        <translation>模型最没把握的图像，分散到各场景</translation>
    </message>
    <message>
        <source>One image per scene (no model needed)</source>
        <translation>每个场景一张图像（无需模型）</translation>
    </message>
    <message>
        <source>At random (the baseline)</source>
        <translation>随机（基线）</translation>
    </message>
    <message>
        <source>Ranks the unlabelled images (status new) by how much labelling them should help the model: boxes with ambiguous scores, disagreement between the image and its mirror image, two classes proposed at one place; near-duplicate frames are grouped so that the picks cover different scenes. The picks open as the Label Next queue, each with the reason it was picked.</source>
        <translation>按标注后对模型的帮助程度为未标注图像（状态为新）排序：分数模棱两可的框、图像与其镜像图像不一致、同一位置出现两个类别；近似重复的帧归为一组，使挑选覆盖不同场景。挑选结果作为“接下来标注”队列打开，每张图像附有被选中的原因。</translation>
    </message>
    <message>
        <source>M&amp;odel:</source>
        <translation>模型(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;Pick Images</source>
        <translation>挑选图像(&amp;P)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Stop measuring and pick from the images measured so far</source>
        <translation>停止评估，从已评估的图像中挑选</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>%1 / %2 images measured, %3 images/s</source>
        <translation>已评估 %1 / %2 张图像，%3 张/秒</translation>
    </message>
    <message>
        <source>, about %1 left</source>
        <translation>，约剩 %1</translation>
    </message>
    <message>
        <source>Stopping: picking from the images measured so far…</source>
        <translation>正在停止：从已评估的图像中挑选…</translation>
    </message>
    <message>
        <source>This strategy needs a model: choose one (the model you train, its best.pt).</source>
        <translation>此策略需要模型：请选择一个（您训练的模型，即其 best.pt）。</translation>
    </message>
    <message>
        <source>Choose how many images and the strategy, then Pick Images.</source>
        <translation>选择图像数量和策略，然后点击“挑选图像”。</translation>
    </message>
    <message>
        <source>Measuring the images…</source>
        <translation>正在评估图像…</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Cannot open the project: %1</source>
        <translation>无法打开项目：%1</translation>
    </message>
    <message>
        <source>Cannot load the model.
%1</source>
        <translation>无法加载模型。
%1</translation>
    </message>
    <message>
        <source>Closed before the end; nothing saved.</source>
        <translation>在完成前关闭；未保存任何内容。</translation>
    </message>
    <message>
        <source>Proposing boxes on the picked images…</source>
        <translation>正在为所选图像生成候选框…</translation>
    </message>
    <message>
        <source>The picks are saved, but proposing boxes on them failed: %1</source>
        <translation>挑选结果已保存，但为其生成候选框失败：%1</translation>
    </message>
    <message>
        <source>Picking images failed.</source>
        <translation>挑选图像失败。</translation>
    </message>
    <message>
        <source>No unlabelled image (status new) to pick from.</source>
        <translation>没有可挑选的未标注图像（状态为新）。</translation>
    </message>
    <message>
        <source>Stopped before any image was measured; nothing picked.</source>
        <translation>在评估任何图像之前已停止；未挑选任何图像。</translation>
    </message>
    <message>
        <source>Picked %1 of %2 images in %3.</source>
        <translation>用时 %3，从 %2 张图像中挑选了 %1 张。</translation>
    </message>
    <message>
        <source>Stopped after %1 images: the picks come from those.</source>
        <translation>评估 %1 张图像后停止：挑选结果来自这些图像。</translation>
    </message>
    <message>
        <source>Stop Picking Images?</source>
        <translation>停止挑选图像？</translation>
    </message>
    <message>
        <source>The images are still being measured. Stop and close? Nothing is saved.</source>
        <translation>仍在评估图像。停止并关闭？不会保存任何内容。</translation>
    </message>
    <message>
        <source>Choose a Model to Pick Images With</source>
        <translation>选择用于挑选图像的模型</translation>
    </message>
    <message>
        <source>Proposed boxes stored for review: %1.</source>
        <translation>已存储待审核的候选框：%1 个。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::LiveRun</name>
    <message>
        <source>A run is already in progress. Stop it before starting another.</source>
        <translation>已有一个运行正在进行。请先停止它再开始新的运行。</translation>
    </message>
    <message>
        <source>The trainer %1 was not found. Reinstall Osprey, or build the osprey-cli target.</source>
        <translation>未找到训练程序 %1。请重新安装 Osprey，或构建 osprey-cli 目标。</translation>
    </message>
    <message>
        <source>$ osprey-cli %1</source>
        <translation>$ osprey-cli %1</translation>
    </message>
    <message>
        <source>Stopping: the trainer finishes the batch and saves last.pt…</source>
        <translation>正在停止：训练进程完成当前批次并保存 last.pt…</translation>
    </message>
    <message>
        <source>Ending the trainer without waiting for it to save…</source>
        <translation>正在结束训练进程，不等待其保存…</translation>
    </message>
    <message>
        <source>The run goes on in the background (process %1). Open it from the runs table to see its progress.</source>
        <translation>运行在后台继续（进程 %1）。可从运行列表中打开以查看进度。</translation>
    </message>
    <message>
        <source>The trainer process crashed</source>
        <translation>训练进程崩溃了</translation>
    </message>
    <message>
        <source>The trainer exited with code %1 without reporting the end of the run</source>
        <translation>训练进程以退出码 %1 退出，未报告运行结束</translation>
    </message>
    <message>
        <source> Last output: %1</source>
        <translation> 最后输出：%1</translation>
    </message>
    <message>
        <source>. Weights up to the last saved checkpoint are kept; resume the run to continue.</source>
        <translation>。截至最后保存的检查点的权重已保留；恢复运行即可继续。</translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
</context>
<context>
    <name>osprey::ui::MainWindow</name>
    <message>
        <source>Edits not saved</source>
        <translation>编辑未保存</translation>
    </message>
    <message>
        <source>%1 edits could not be stored yet. Closing the project now loses them.

%2</source>
        <translation>%1 处编辑尚未能保存。现在关闭项目会丢失这些编辑。

%2</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Classes</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Open a project to start</source>
        <translation>打开一个项目以开始</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New Project…</source>
        <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open Project…</source>
        <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Close Project</source>
        <translation>关闭项目(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Osprey</source>
        <translation>关于 Osprey(&amp;A)</translation>
    </message>
    <message>
        <source>About Osprey</source>
        <translation>关于 Osprey</translation>
    </message>
    <message>
        <source>&lt;b&gt;Osprey %1&lt;/b&gt;&lt;p&gt;Label images, train YOLO detectors and watch them learn.&lt;/p&gt;&lt;p&gt;Licensed under the GNU GPL v3 or later.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Osprey %1&lt;/b&gt;&lt;p&gt;标注图像，训练 YOLO 检测器，并观察它们的学习过程。&lt;/p&gt;&lt;p&gt;依据 GNU GPL v3 或更高版本授权。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <source>%1 — %2 images, %3 classes</source>
        <translation>%1 — %2 张图像，%3 个类别</translation>
    </message>
    <message>
        <source>Choose an empty folder for the new project</source>
        <translation>为新项目选择一个空文件夹</translation>
    </message>
    <message>
        <source>Cannot create project</source>
        <translation>无法创建项目</translation>
    </message>
    <message>
        <source>Open a project folder</source>
        <translation>打开项目文件夹</translation>
    </message>
    <message>
        <source>No recent projects</source>
        <translation>没有最近的项目</translation>
    </message>
    <message>
        <source>%1 — Osprey</source>
        <translation>%1 — Osprey</translation>
    </message>
    <message>
        <source>Osprey</source>
        <translation>Osprey</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Platform…</source>
        <translation>平台(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System Language</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The new language applies when Osprey starts again.</source>
        <translation>新的语言将在 Osprey 下次启动时生效。</translation>
    </message>
    <message>
        <source>%1 (read-only) — Osprey</source>
        <translation>%1（只读）— Osprey</translation>
    </message>
</context>
<context>
    <name>osprey::ui::OptionForm</name>
    <message>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>osprey::ui::PlannerPanel</name>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>scaled</source>
        <translation>换算</translation>
    </message>
    <message>
        <source>modelled</source>
        <translation>模型估算</translation>
    </message>
    <message>
        <source>not calibrated</source>
        <translation>未校准</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>VRAM</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>$/h</source>
        <translation>$/小时</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Max batch</source>
        <translation>最大批</translation>
    </message>
    <message>
        <source>Basis</source>
        <translation>依据</translation>
    </message>
    <message>
        <source>%1, %2 epochs at imgsz %3, batch %4, on %5 train and %6 val images.</source>
        <translation>%1，%2 轮，imgsz %3，批 %4，%5 张训练图像和 %6 张验证图像。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cheapest:&lt;/b&gt; %1. &lt;b&gt;Fastest:&lt;/b&gt; %2.</source>
        <translation>&lt;b&gt;最便宜：&lt;/b&gt;%1。&lt;b&gt;最快：&lt;/b&gt;%2。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recommended:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;推荐：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Start small:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;从小处开始：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>On %1: about %2%3.</source>
        <translation>在 %1 上：约 %2%3。</translation>
    </message>
    <message>
        <source>, %1</source>
        <translation>，%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Warning:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;警告：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#8a8f98&apos;&gt;Times are ranges from measured throughput scaled by compute (TFLOP/s) and memory bandwidth; prices are the catalogue&apos;s (osprey-cli plan gpus).&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#8a8f98&apos;&gt;时间是一个范围：由实测吞吐量按算力（TFLOP/s）和内存带宽换算而来；价格取自目录（osprey-cli plan gpus）。&lt;/span&gt;</translation>
    </message>
    <message>
        <source>This machine (%1)</source>
        <translation>本机（%1）</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>%1 per epoch</source>
        <translation>每轮 %1</translation>
    </message>
    <message>
        <source>The chosen batch does not fit this GPU&apos;s memory.</source>
        <translation>所选的批放不进这块 GPU 的内存（显存）。</translation>
    </message>
    <message>
        <source>time (h)</source>
        <translation>时间（小时）</translation>
    </message>
    <message>
        <source>cost ($)</source>
        <translation>费用（$）</translation>
    </message>
</context>
<context>
    <name>osprey::ui::PlatformSettingsDialog</name>
    <message>
        <source>from the ULTRALYTICS_API_KEY environment variable</source>
        <translation>来自 ULTRALYTICS_API_KEY 环境变量</translation>
    </message>
    <message>
        <source>stored in the OS keychain</source>
        <translation>存储在系统钥匙串中</translation>
    </message>
    <message>
        <source>stored in the settings file (readable only by you)</source>
        <translation>存储在设置文件中（仅你可读）</translation>
    </message>
    <message>
        <source>Platform Settings</source>
        <translation>平台设置</translation>
    </message>
    <message>
        <source>Stream training runs to a platform dashboard (Ultralytics Platform or a compatible server) and upload the trained weights there. Create an API key in the platform&apos;s settings and paste it here.</source>
        <translation>将训练运行实时推送到平台仪表板（Ultralytics Platform 或兼容的服务器），并把训练好的权重上传到那里。请在平台的设置中创建 API 密钥并粘贴到这里。</translation>
    </message>
    <message>
        <source>The platform&apos;s address. Empty uses %1.</source>
        <translation>平台地址。留空则使用 %1。</translation>
    </message>
    <message>
        <source>Reading the stored key…</source>
        <translation>正在读取已存储的密钥…</translation>
    </message>
    <message>
        <source>paste a new key (ul_…) to replace the stored one</source>
        <translation>粘贴新的密钥 (ul_…) 以替换已存储的密钥</translation>
    </message>
    <message>
        <source>The key is stored in the OS keychain where one runs, otherwise in a settings file only you can read. It is never shown or logged in clear.</source>
        <translation>若系统钥匙串服务可用，密钥将存储在其中，否则存储在只有你可读的设置文件中。密钥从不以明文显示或记录到日志。</translation>
    </message>
    <message>
        <source>Platform URL</source>
        <translation>平台 URL</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Ask the platform whose key this is (the typed key, or else the stored one).</source>
        <translation>向平台查询此密钥属于谁（优先使用输入的密钥，否则使用已存储的密钥）。</translation>
    </message>
    <message>
        <source>Remove Key</source>
        <translation>删除密钥</translation>
    </message>
    <message>
        <source>Delete the stored key from this computer.</source>
        <translation>从这台计算机上删除已存储的密钥。</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Asking the platform…</source>
        <translation>正在询问平台…</translation>
    </message>
    <message>
        <source>There is no key to test: paste one above.</source>
        <translation>没有可测试的密钥：请在上方粘贴一个。</translation>
    </message>
    <message>
        <source>Key rejected (%1): the platform does not accept this key. Check that the whole key was copied, or create a new one.</source>
        <translation>密钥被拒绝 (%1)：平台不接受此密钥。请检查是否复制了完整的密钥，或创建一个新密钥。</translation>
    </message>
    <message>
        <source>The platform at %1 could not check the key: %2</source>
        <translation>位于 %1 的平台无法检查此密钥：%2</translation>
    </message>
    <message>
        <source>The platform at %1 answered, but not with an account; is this the right URL?</source>
        <translation>位于 %1 的平台有应答，但没有返回账户；URL 是否正确？</translation>
    </message>
    <message>
        <source>The platform URL must be an https:// address, e.g. %1.</source>
        <translation>平台 URL 必须是 https:// 地址，例如 %1。</translation>
    </message>
    <message>
        <source>The settings could not be saved: %1</source>
        <translation>无法保存设置：%1</translation>
    </message>
    <message>
        <source>Remove API key</source>
        <translation>删除 API 密钥</translation>
    </message>
    <message>
        <source>Remove the stored platform key from this computer? Runs can no longer stream until a key is stored again.</source>
        <translation>要从这台计算机上删除已存储的平台密钥吗？在重新存储密钥之前，运行将无法推送到平台。</translation>
    </message>
    <message>
        <source>The key could not be removed: %1</source>
        <translation>无法删除密钥：%1</translation>
    </message>
    <message>
        <source>no key stored</source>
        <translation>未存储密钥</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>ULTRALYTICS_API_KEY is set in the environment; it takes precedence over a stored key.</source>
        <translation>环境中设置了 ULTRALYTICS_API_KEY；它优先于已存储的密钥。</translation>
    </message>
    <message>
        <source>ULTRALYTICS_PLATFORM_URL is set in the environment; it takes precedence over the URL saved here.</source>
        <translation>环境中设置了 ULTRALYTICS_PLATFORM_URL；它优先于此处保存的 URL。</translation>
    </message>
    <message>
        <source>The key works: signed in as %1.</source>
        <translation>密钥有效：已登录为 %1。</translation>
    </message>
    <message>
        <source>Key saved, %1.</source>
        <translation>密钥已保存，%1。</translation>
    </message>
    <message>
        <source>Platform URL saved.</source>
        <translation>平台 URL 已保存。</translation>
    </message>
    <message>
        <source>It does not look like a platform key (ul_ and 40 hex digits); use Test to check it.</source>
        <translation>这看起来不像平台密钥（ul_ 加 40 位十六进制数字）；请用“测试”检查。</translation>
    </message>
    <message>
        <source>Key removed.</source>
        <translation>密钥已删除。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ProjectDocument</name>
    <message>
        <source>unknown class %1</source>
        <translation>未知类别 %1</translation>
    </message>
</context>
<context>
    <name>osprey::ui::RemoteStatusWidget</name>
    <message>
        <source>Platform: connecting…</source>
        <translation>平台：正在连接…</translation>
    </message>
    <message>
        <source>Platform: connected</source>
        <translation>平台：已连接</translation>
    </message>
    <message>
        <source>Platform: unreachable, retrying</source>
        <translation>平台：无法访问，正在重试</translation>
    </message>
    <message>
        <source>Platform: unreachable (%1), retrying</source>
        <translation>平台：无法访问（%1），正在重试</translation>
    </message>
    <message>
        <source>Platform: key rejected (401) · reporting stopped</source>
        <translation>平台：密钥被拒绝 (401) · 已停止上报</translation>
    </message>
    <message>
        <source>Platform: off</source>
        <translation>平台：关闭</translation>
    </message>
    <message>
        <source>Platform: off (%1)</source>
        <translation>平台：关闭（%1）</translation>
    </message>
    <message>
        <source>Platform: %1</source>
        <translation>平台：%1</translation>
    </message>
    <message>
        <source> · cancelled on the platform</source>
        <translation> · 已在平台上取消</translation>
    </message>
    <message>
        <source>Last error: %1
</source>
        <translation>最后的错误：%1
</translation>
    </message>
    <message>
        <source>Events are kept in the project&apos;s outbox and sent, in order, when the platform answers again. Nothing is lost.</source>
        <translation>事件保存在项目的发件箱中，平台恢复应答后按顺序发送。不会丢失任何内容。</translation>
    </message>
    <message>
        <source>The run was cancelled on the platform: training stops at the end of the epoch, then uploads its weights.</source>
        <translation>该运行已在平台上取消：训练将在本轮结束时停止，然后上传其权重。</translation>
    </message>
    <message>
        <source>The platform rejected some events; they are not retried.</source>
        <translation>平台拒绝了部分事件；这些事件不会重试。</translation>
    </message>
    <message>
        <source>Open the run on the platform ↗</source>
        <translation>在平台上打开该运行 ↗</translation>
    </message>
    <message>
        <source>Uploading weights: %1 / %2 MB</source>
        <translation>正在上传权重：%1 / %2 MB</translation>
    </message>
    <message>
        <source>Upload interrupted at %1 / %2 MB; it is retried</source>
        <translation>上传在 %1 / %2 MB 处中断；将重试</translation>
    </message>
    <message>
        <source>Weights uploaded: %1 MB</source>
        <translation>权重已上传：%1 MB</translation>
    </message>
    <message>
        <source>Uploading weights…</source>
        <translation>正在上传权重…</translation>
    </message>
    <message>
        <source>The platform did not accept the API key. Training goes on locally; check or replace the key in Settings → Platform, then send the queued events with: osprey-cli remote sync project=&lt;project folder&gt;</source>
        <translation>平台不接受该 API 密钥。训练在本地继续；请在 设置 → 平台 中检查或更换密钥，然后用以下命令发送排队的事件：osprey-cli remote sync project=&lt;项目文件夹&gt;</translation>
    </message>
    <message>
        <source>The queued events stay in the project&apos;s outbox; send them later with: osprey-cli remote sync project=&lt;project folder&gt;</source>
        <translation>排队的事件保留在项目的发件箱中；稍后可用以下命令发送：osprey-cli remote sync project=&lt;项目文件夹&gt;</translation>
    </message>
    <message>
        <source> · %1 queued</source>
        <translation> · %1 个排队中</translation>
    </message>
    <message>
        <source>Platform: done · %1 still queued</source>
        <translation>平台：完成 · 仍有 %1 个排队中</translation>
    </message>
    <message>
        <source>Platform: done · %1 delivered</source>
        <translation>平台：完成 · 已送达 %1 个</translation>
    </message>
    <message>
        <source> · %1 rejected</source>
        <translation> · %1 个被拒绝</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ReviewQueueActions</name>
    <message>
        <source>Review Queue: &amp;Lowest Confidence First</source>
        <translation>审核队列：置信度最低优先(&amp;L)</translation>
    </message>
    <message>
        <source>Walk the images with unchecked model boxes, the least confident first</source>
        <translation>逐一查看有未检查模型框的图像，置信度最低的优先</translation>
    </message>
    <message>
        <source>Review Queue: Most &amp;Disagreement First</source>
        <translation>审核队列：分歧最大优先(&amp;D)</translation>
    </message>
    <message>
        <source>Walk the images where the model boxes and the existing labels disagree most (false positives and missed boxes at IoU 0.5) first</source>
        <translation>优先逐一查看模型框与现有标注分歧最大的图像（在 IoU 0.5 下的误检框和漏检框）</translation>
    </message>
    <message>
        <source>Cannot build the review queue: %1</source>
        <translation>无法建立审核队列：%1</translation>
    </message>
    <message>
        <source>No image needs review: every image with model boxes has been reviewed</source>
        <translation>没有需要审核的图像：所有带模型框的图像都已审核</translation>
    </message>
    <message>
        <source>D/A walk it, Space marks an image reviewed.</source>
        <translation>D/A 逐一浏览，Space 将图像标记为已审核。</translation>
    </message>
    <message>
        <source>Building the review queue…</source>
        <translation>正在建立审核队列…</translation>
    </message>
    <message>
        <source>Nothing to compare: the images that need review (%1) have no manual or imported labels; use the confidence order</source>
        <translation>没有可比较的内容：需要审核的图像（%1）没有手动或导入的标注；请使用置信度顺序</translation>
    </message>
    <message>
        <source>1 image</source>
        <translation>1 张图像</translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation>%1 张图像</translation>
    </message>
    <message>
        <source>&lt;b&gt;Review queue&lt;/b&gt;, most disagreement with the labels first: %1.</source>
        <translation>&lt;b&gt;审核队列&lt;/b&gt;，与标注分歧最大的优先：%1。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Review queue&lt;/b&gt;, lowest model confidence first: %1.</source>
        <translation>&lt;b&gt;审核队列&lt;/b&gt;，模型置信度最低的优先：%1。</translation>
    </message>
    <message>
        <source>Left out: %1 without labels to compare.</source>
        <translation>未包含：%1 没有可比较的标注。</translation>
    </message>
    <message>
        <source>Review queue: %1 to check</source>
        <translation>审核队列：%1 待检查</translation>
    </message>
    <message>
        <source>Label &amp;Next Queue</source>
        <translation>接下来标注队列(&amp;N)</translation>
    </message>
    <message>
        <source>Walk the images last picked to label next (Choose Images to Label Next…), each with the reason it was picked</source>
        <translation>逐一查看上次挑选的接下来要标注的图像（选择接下来要标注的图像…），每张附有被选中的原因</translation>
    </message>
    <message>
        <source>Uncertain %1: mirror disagreement %2, ambiguous boxes %3, class confusion %4</source>
        <translation>不确定度 %1：镜像不一致 %2，模棱两可的框 %3，类别混淆 %4</translation>
    </message>
    <message>
        <source>One image per scene: %1, the image nearest its centre</source>
        <translation>每个场景一张图像：%1，最接近其中心的图像</translation>
    </message>
    <message>
        <source>Picked at random</source>
        <translation>随机挑选</translation>
    </message>
    <message>
        <source>Cannot open the label-next queue: %1</source>
        <translation>无法打开接下来标注队列：%1</translation>
    </message>
    <message>
        <source>The label-next queue is empty: choose images with Edit &gt; Model Proposals &gt; Choose Images to Label Next…</source>
        <translation>接下来标注队列为空：请通过 编辑 &gt; 模型候选框 &gt; 选择接下来要标注的图像… 选择图像</translation>
    </message>
    <message>
        <source>Picked to label next: %1</source>
        <translation>被选为接下来标注：%1</translation>
    </message>
    <message>
        <source>scene group %1 (1 image)</source>
        <translation>场景组 %1（1 张图像）</translation>
    </message>
    <message>
        <source>scene group %1 (%2 images)</source>
        <translation>场景组 %1（%2 张图像）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Label next&lt;/b&gt;: 1 image.</source>
        <translation>&lt;b&gt;接下来标注&lt;/b&gt;：1 张图像。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Label next&lt;/b&gt;: %1 images, the most useful first.</source>
        <translation>&lt;b&gt;接下来标注&lt;/b&gt;：%1 张图像，最有用的在前。</translation>
    </message>
    <message>
        <source>D/A walk it.</source>
        <translation>用 D/A 逐一浏览。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::RunCurvesView</name>
    <message>
        <source>Precision-Recall (IoU 0.5)</source>
        <translation>精确率-召回率（IoU 0.5）</translation>
    </message>
    <message>
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>F1 over confidence</source>
        <translation>F1 随置信度的变化</translation>
    </message>
    <message>
        <source>confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>A confidence threshold: the mean precision, recall and F1 over the classes there</source>
        <translation>置信度阈值：该处各类别的平均精确率、召回率和 F1</translation>
    </message>
    <message>
        <source>Confidence:</source>
        <translation>置信度：</translation>
    </message>
    <message>
        <source>Best model, epoch %1: mean F1 %2 at confidence %3 over %4 classes with labels (curves.json)</source>
        <translation>最佳模型，第 %1 轮：置信度 %3 处平均 F1 为 %2（%4 个有标注的类别，curves.json）</translation>
    </message>
    <message>
        <source>No curves yet: a run writes them (curves.json) when an epoch becomes the best.</source>
        <translation>尚无曲线：运行在某一轮成为最佳时写入曲线（curves.json）。</translation>
    </message>
    <message>
        <source>all classes %1 mAP50</source>
        <translation>全部类别 %1 mAP50</translation>
    </message>
    <message>
        <source>all classes %1 at %2</source>
        <translation>全部类别 %1，置信度 %2</translation>
    </message>
    <message>
        <source>confidence %1: P %2, R %3, F1 %4</source>
        <translation>置信度 %1：P %2，R %3，F1 %4</translation>
    </message>
    <message>
        <source>recall %1: precision %2 (all classes)</source>
        <translation>召回率 %1：精确率 %2（全部类别）</translation>
    </message>
</context>
<context>
    <name>osprey::ui::RunDiffPanel</name>
    <message>
        <source>Compare two runs to see what differs.</source>
        <translation>比较两次运行，查看它们的差异。</translation>
    </message>
    <message>
        <source>Argument</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>First run</source>
        <translation>第一次运行</translation>
    </message>
    <message>
        <source>Second run</source>
        <translation>第二次运行</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Open the Changed Images in the Editor</source>
        <translation>在编辑器中打开有变化的图像</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>1 image</source>
        <translation>1 张图像</translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation>%1 张图像</translation>
    </message>
    <message>
        <source>&lt;b&gt;Changed between runs %1 and %2&lt;/b&gt;: %3. D/A walk them.</source>
        <translation>&lt;b&gt;运行 %1 与 %2 之间有变化的图像&lt;/b&gt;：%3。用 D/A 逐一查看。</translation>
    </message>
    <message>
        <source>Comparing %1 with %2…</source>
        <translation>正在比较 %1 与 %2…</translation>
    </message>
    <message>
        <source>Cannot compare the runs: %1</source>
        <translation>无法比较这些运行：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Same data&lt;/b&gt; (dataset snapshot %1).</source>
        <translation>&lt;b&gt;数据相同&lt;/b&gt;（数据集快照 %1）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The data differs&lt;/b&gt; (snapshot %1 → %2).</source>
        <translation>&lt;b&gt;数据不同&lt;/b&gt;（快照 %1 → %2）。</translation>
    </message>
    <message>
        <source>Images: %1 added, %2 removed, %3 moved between splits, %4 with another status, %5 with other content.</source>
        <translation>图像：新增 %1，移除 %2，在划分之间移动 %3，状态改变 %4，内容改变 %5。</translation>
    </message>
    <message>
        <source>Boxes: %1 added, %2 removed, %3 moved, %4 relabelled, %5 adjusted slightly.</source>
        <translation>框：新增 %1，移除 %2，移动 %3，重新标注 %4，微调 %5。</translation>
    </message>
    <message>
        <source>Classes: %1 renamed, %2 added, %3 removed%4.</source>
        <translation>类别：重命名 %1，新增 %2，移除 %3%4。</translation>
    </message>
    <message>
        <source>, reordered</source>
        <translation>，顺序改变</translation>
    </message>
    <message>
        <source>Arguments: the same.</source>
        <translation>参数：相同。</translation>
    </message>
    <message>
        <source>Arguments: %1 changed.</source>
        <translation>参数：%1 个改变。</translation>
    </message>
    <message>
        <source>added, with %1 boxes</source>
        <translation>新增，含 %1 个框</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>已移除</translation>
    </message>
    <message>
        <source>moved from %1 to %2</source>
        <translation>从 %1 移到 %2</translation>
    </message>
    <message>
        <source>status %1 → %2</source>
        <translation>状态 %1 → %2</translation>
    </message>
    <message>
        <source>other content</source>
        <translation>内容改变</translation>
    </message>
    <message>
        <source>box added: %1 %2</source>
        <translation>新增框：%1 %2</translation>
    </message>
    <message>
        <source>box removed: %1 %2</source>
        <translation>移除框：%1 %2</translation>
    </message>
    <message>
        <source>box moved: %1 %2 → %3 (IoU %4)</source>
        <translation>框移动：%1 %2 → %3（IoU %4）</translation>
    </message>
    <message>
        <source>box relabelled: %1 → %2</source>
        <translation>框重新标注：%1 → %2</translation>
    </message>
</context>
<context>
    <name>osprey::ui::RunPlotsView</name>
    <message>
        <source>The run folder&apos;s pictures, as Ultralytics names them.</source>
        <translation>运行文件夹中的图片，文件名与 Ultralytics 相同。</translation>
    </message>
    <message>
        <source>Picture:</source>
        <translation>图片：</translation>
    </message>
    <message>
        <source>No run to show.</source>
        <translation>没有可显示的运行。</translation>
    </message>
    <message>
        <source>No pictures yet: they are drawn when the run ends. For an older run: osprey-cli runs plots %1 project=…</source>
        <translation>还没有图片：运行结束时会绘制它们。对于较早的运行：osprey-cli runs plots %1 project=…（project 为项目文件夹）</translation>
    </message>
</context>
<context>
    <name>osprey::ui::RunViewer</name>
    <message>
        <source>Stopping the background trainer (process %1): it finishes the batch and saves last.pt…</source>
        <translation>正在停止后台训练进程（进程 %1）：它将完成当前批次并保存 last.pt…</translation>
    </message>
    <message>
        <source>This run&apos;s trainer (process %1) is not running any more.</source>
        <translation>此运行的训练进程（进程 %1）已不再运行。</translation>
    </message>
    <message>
        <source>the trainer (process %1) ended without finishing the run; resume it from last.pt</source>
        <translation>训练进程（进程 %1）未完成运行就结束了；请从 last.pt 恢复运行</translation>
    </message>
</context>
<context>
    <name>osprey::ui::RunsTable</name>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Best mAP50-95</source>
        <translation>最佳 mAP50-95</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Select one run to see its charts, or several (Ctrl+click) to compare them.</source>
        <translation>选择一个运行以查看其图表，或选择多个（Ctrl+单击）进行比较。</translation>
    </message>
    <message>
        <source>No runs yet in this project.</source>
        <translation>此项目中还没有运行。</translation>
    </message>
    <message>
        <source>Show Charts</source>
        <translation>显示图表</translation>
    </message>
    <message>
        <source>Show the selected run&apos;s charts (double-click a row does the same); with several runs selected, overlay their charts.</source>
        <translation>显示所选运行的图表（双击一行效果相同）；选择多个运行时，叠加显示它们的图表。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Continue the selected stopped run from its last.pt.</source>
        <translation>从 last.pt 继续所选的已停止运行。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Runs&lt;/b&gt;</source>
        <translation>&lt;b&gt;运行&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Cannot read the runs table: %1</source>
        <translation>无法读取运行表：%1</translation>
    </message>
    <message>
        <source>%1 (epoch %2)</source>
        <translation>%1（第 %2 轮）</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Compare %1 Runs</source>
        <translation>比较 %1 个运行</translation>
    </message>
    <message>
        <source>Retrain</source>
        <translation>重新训练</translation>
    </message>
    <message>
        <source>Fine-tune the selected run&apos;s best.pt on the project as it is now (with the images labelled since), with the run&apos;s own settings, as a new run.</source>
        <translation>以所选运行自身的设置，在项目当前的数据（包括此后标注的图像）上微调其 best.pt，作为一个新的运行。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Click a shortcut and press the new keys. Backspace clears it.</source>
        <translation>单击一个快捷键并按下新的按键。Backspace 清除它。</translation>
    </message>
    <message>
        <source>%1 is used by both “%2” and “%3”</source>
        <translation>%1 同时被“%2”和“%3”使用</translation>
    </message>
</context>
<context>
    <name>osprey::ui::SplitDialog</name>
    <message>
        <source>Split Dataset</source>
        <translation>划分数据集</translation>
    </message>
    <message>
        <source>The same seed gives the same split</source>
        <translation>相同的种子得到相同的划分</translation>
    </message>
    <message>
        <source>Train:</source>
        <translation>训练集：</translation>
    </message>
    <message>
        <source>Val:</source>
        <translation>验证集：</translation>
    </message>
    <message>
        <source>Test:</source>
        <translation>测试集：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Stratified by class. Identical images stay in one split; locked images keep theirs.</source>
        <translation>按类别分层。相同的图像留在同一子集中；锁定的图像保持原有子集。</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>划分</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>At least one fraction must be above zero.</source>
        <translation>至少有一个比例必须大于零。</translation>
    </message>
    <message>
        <source>Splitting…</source>
        <translation>正在划分…</translation>
    </message>
    <message>
        <source>Split failed: %1</source>
        <translation>划分失败：%1</translation>
    </message>
</context>
<context>
    <name>osprey::ui::StatisticsPanel</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Boxes per class</source>
        <translation>每个类别的框数</translation>
    </message>
    <message>
        <source>Box size relative to the image</source>
        <translation>框相对于图像的尺寸</translation>
    </message>
    <message>
        <source>Boxes per image</source>
        <translation>每张图像的框数</translation>
    </message>
    <message>
        <source>Computing statistics…</source>
        <translation>正在计算统计…</translation>
    </message>
    <message>
        <source>Cannot compute statistics: %1</source>
        <translation>无法计算统计：%1</translation>
    </message>
    <message>
        <source>%1 images (%2 labeled, %3 verified empty, %4 not labeled yet), %5 boxes, %6 classes</source>
        <translation>%1 张图像（%2 张已标注，%3 张确认为空，%4 张尚未标注），%5 个框，%6 个类别</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练集</translation>
    </message>
    <message>
        <source>val</source>
        <translation>验证集</translation>
    </message>
    <message>
        <source>test</source>
        <translation>测试集</translation>
    </message>
    <message>
        <source>none</source>
        <translation>未划分</translation>
    </message>
    <message>
        <source>boxes</source>
        <translation>框</translation>
    </message>
    <message>
        <source>width / image width</source>
        <translation>宽度 / 图像宽度</translation>
    </message>
    <message>
        <source>height / image height</source>
        <translation>高度 / 图像高度</translation>
    </message>
    <message>
        <source>relative size</source>
        <translation>相对尺寸</translation>
    </message>
    <message>
        <source>boxes in the image</source>
        <translation>图像中的框数</translation>
    </message>
    <message>
        <source>images</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Box centres in the image</source>
        <translation>框中心在图像中的位置</translation>
    </message>
    <message>
        <source>Box width and height</source>
        <translation>框的宽度和高度</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x（横向）</translation>
    </message>
    <message>
        <source>y (from the top)</source>
        <translation>y（自上而下）</translation>
    </message>
    <message>
        <source>width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>height</source>
        <translation>高度</translation>
    </message>
    <message>
        <source>Box shapes (centred)</source>
        <translation>框形状（居中）</translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainActions</name>
    <message>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>Training &amp;Dashboard</source>
        <translation>训练仪表板(&amp;D)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <source>&amp;Start Training</source>
        <translation>开始训练(&amp;S)</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>S&amp;top Training</source>
        <translation>停止训练(&amp;T)</translation>
    </message>
    <message>
        <source>Training in progress</source>
        <translation>训练进行中</translation>
    </message>
    <message>
        <source>&lt;b&gt;A training run is in progress.&lt;/b&gt;</source>
        <translation>&lt;b&gt;一个训练运行正在进行。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Keep training in the background&lt;/b&gt;: the run goes on after Osprey closes and writes its charts and weights to the run folder; open it later from the runs table.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Stop and save&lt;/b&gt;: the trainer finishes the current batch and saves last.pt, so the run can be resumed.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;在后台继续训练&lt;/b&gt;：Osprey 关闭后运行继续，并将图表数据和权重写入运行文件夹；之后可从运行列表中打开。&lt;/p&gt;&lt;p&gt;&lt;b&gt;停止并保存&lt;/b&gt;：训练进程完成当前批次并保存 last.pt，之后可以恢复该运行。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Keep Training in Background</source>
        <translation>在后台继续训练</translation>
    </message>
    <message>
        <source>Stop and Save</source>
        <translation>停止并保存</translation>
    </message>
    <message>
        <source>Stopping the run: the trainer finishes its batch and saves last.pt…</source>
        <translation>正在停止运行：训练进程完成当前批次并保存 last.pt…</translation>
    </message>
    <message>
        <source>End Now Without Saving</source>
        <translation>立即结束，不保存</translation>
    </message>
    <message>
        <source>Stopping training</source>
        <translation>正在停止训练</translation>
    </message>
    <message>
        <source>&amp;Export Model…</source>
        <translation>导出模型(&amp;E)…</translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainForm</name>
    <message>
        <source>Stream to platform</source>
        <translation>推送到平台</translation>
    </message>
    <message>
        <source>Send live metrics to the platform dashboard and upload the weights at the end. Needs an API key (Settings → Platform). Events wait in the project&apos;s outbox while the platform cannot be reached; training never waits for them.</source>
        <translation>将实时指标发送到平台仪表板，并在结束时上传权重。需要 API 密钥（设置 → 平台）。平台无法访问时事件在项目的发件箱中等待；训练从不等待它们。</translation>
    </message>
    <message>
        <source>Platform project</source>
        <translation>平台项目</translation>
    </message>
    <message>
        <source>The platform project to stream to, as user/project. Remembered for this project.</source>
        <translation>要推送到的平台项目，格式为 user/project（用户/项目）。按此项目记住。</translation>
    </message>
    <message>
        <source>user/project</source>
        <translation>user/project（用户/项目）</translation>
    </message>
    <message>
        <source>Stream to platform is on, but the platform project is missing. Enter it as user/project, or turn streaming off.</source>
        <translation>已开启推送到平台，但缺少平台项目。请按 user/project（用户/项目）格式输入，或关闭推送。</translation>
    </message>
    <message>
        <source>Log to MLflow</source>
        <translation>记录日志到 MLflow</translation>
    </message>
    <message>
        <source>Log the run&apos;s options, metrics, dataset and weights to your team&apos;s MLflow tracking server. Records wait in the project while the server cannot be reached; training never waits for them. Credentials come from MLFLOW_TRACKING_USERNAME/PASSWORD or MLFLOW_TRACKING_TOKEN.</source>
        <translation>将运行的选项、指标、数据集和权重以日志形式记录到团队的 MLflow 跟踪服务器。服务器无法访问时，这些记录在项目中等待；训练从不等待它们。凭据来自 MLFLOW_TRACKING_USERNAME/PASSWORD 或 MLFLOW_TRACKING_TOKEN。</translation>
    </message>
    <message>
        <source>MLflow server</source>
        <translation>MLflow 服务器</translation>
    </message>
    <message>
        <source>The tracking server&apos;s address, as http://host:port. Remembered for this project.</source>
        <translation>跟踪服务器的地址，格式为 http://host:port。按此项目记住。</translation>
    </message>
    <message>
        <source>http://host:5000</source>
        <translation>http://主机:5000</translation>
    </message>
    <message>
        <source>MLflow experiment</source>
        <translation>MLflow 实验</translation>
    </message>
    <message>
        <source>The experiment the run goes into; created when missing. Empty: the project folder&apos;s name. Remembered for this project.</source>
        <translation>运行所属的实验；不存在时自动创建。留空：使用项目文件夹的名称。按此项目记住。</translation>
    </message>
    <message>
        <source>the project&apos;s name</source>
        <translation>项目的名称</translation>
    </message>
    <message>
        <source>Log to MLflow is on, but the MLflow server is missing or is not an address like http://host:5000 (without a user name or password). Enter it, or turn logging off.</source>
        <translation>已开启记录日志到 MLflow，但缺少 MLflow 服务器，或它不是形如 http://host:5000 的地址（不能包含用户名或密码）。请输入地址，或关闭日志记录。</translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainPanel</name>
    <message>
        <source>Start Training</source>
        <translation>开始训练</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Finish the current batch, save last.pt and end the run; it can be resumed.</source>
        <translation>完成当前批次，保存 last.pt 并结束运行；之后可以恢复。</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Select a stopped run to resume.</source>
        <translation>选择一个已停止的运行以恢复。</translation>
    </message>
    <message>
        <source>A run is already in progress. Stop it before starting another.</source>
        <translation>已有一个运行正在进行。请先停止它再开始新的运行。</translation>
    </message>
    <message>
        <source>looking for NVIDIA GPUs…</source>
        <translation>正在查找 NVIDIA GPU…</translation>
    </message>
    <message>
        <source>Check the dataset, then train a detector on this project&apos;s train split, validating on the val split.</source>
        <translation>检查数据集，然后在此项目的训练集上训练检测器，并在验证集上验证。</translation>
    </message>
    <message>
        <source>The dataset check is still running.</source>
        <translation>数据集检查仍在运行。</translation>
    </message>
    <message>
        <source>Checking the dataset before training…</source>
        <translation>训练前正在检查数据集…</translation>
    </message>
    <message>
        <source>warning: could not remember the platform project for this project: %1</source>
        <translation>警告：无法为此项目记住平台项目：%1</translation>
    </message>
    <message>
        <source>Cancel Dataset Check</source>
        <translation>取消数据集检查</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Planner</source>
        <translation>规划</translation>
    </message>
    <message>
        <source>Differences</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>warning: could not remember the MLflow settings for this project: %1</source>
        <translation>警告：无法为此项目记住 MLflow 设置：%1</translation>
    </message>
    <message>
        <source>Select the run to retrain from.</source>
        <translation>请选择要从中重新训练的运行。</translation>
    </message>
    <message>
        <source>Cannot retrain from %1: %2</source>
        <translation>无法从 %1 重新训练：%2</translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainPreflight</name>
    <message>
        <source>, e.g. %1</source>
        <translation>，例如 %1</translation>
    </message>
    <message>
        <source>Dataset check before training</source>
        <translation>训练前的数据集检查</translation>
    </message>
    <message>
        <source>%1 images, %2 boxes checked.</source>
        <translation>已检查 %1 张图像，%2 个框。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Training cannot start: the dataset has errors.&lt;/b&gt;</source>
        <translation>&lt;b&gt;无法开始训练：数据集有错误。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Warnings:</source>
        <translation>警告：</translation>
    </message>
    <message>
        <source>Fix them (Dataset → Health Check lists every finding and opens the image), then start again.</source>
        <translation>请修复它们（数据集 → 健康检查 会列出每个检查结果并打开对应图像），然后重新开始。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The dataset has warnings.&lt;/b&gt;</source>
        <translation>&lt;b&gt;数据集有警告。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;The dataset check could not run.&lt;/b&gt;</source>
        <translation>&lt;b&gt;无法运行数据集检查。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Training can go on, but these may cost accuracy.</source>
        <translation>训练可以继续，但这些问题可能降低精度。</translation>
    </message>
    <message>
        <source>Start Anyway</source>
        <translation>仍然开始</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… 以及另外 %1 项</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainerProcess</name>
    <message>
        <source>A trainer is already running.</source>
        <translation>已有一个训练进程在运行。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1 for the trainer&apos;s output.</source>
        <translation>无法为训练进程的输出创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainingCharts</name>
    <message>
        <source>Box loss (CIoU)</source>
        <translation>框损失 (CIoU)</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>val</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Class loss (BCE)</source>
        <translation>分类损失 (BCE)</translation>
    </message>
    <message>
        <source>DFL loss</source>
        <translation>DFL 损失</translation>
    </message>
    <message>
        <source>mAP (val)</source>
        <translation>mAP（验证集）</translation>
    </message>
    <message>
        <source>mAP</source>
        <translation>mAP</translation>
    </message>
    <message>
        <source>mAP50</source>
        <translation>mAP50</translation>
    </message>
    <message>
        <source>mAP50-95</source>
        <translation>mAP50-95</translation>
    </message>
    <message>
        <source>Precision and recall (val)</source>
        <translation>精确率和召回率（验证集）</translation>
    </message>
    <message>
        <source>fraction</source>
        <translation>比例</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>pg0 weights</source>
        <translation>pg0 权重</translation>
    </message>
    <message>
        <source>pg1 BatchNorm</source>
        <translation>pg1 BatchNorm</translation>
    </message>
    <message>
        <source>pg2 biases</source>
        <translation>pg2 偏置</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Logarithmic loss axes</source>
        <translation>对数损失坐标轴</translation>
    </message>
    <message>
        <source>Show the three loss charts on a log scale, which makes late, small improvements visible.</source>
        <translation>以对数刻度显示三个损失图表，便于看出后期的微小改进。</translation>
    </message>
    <message>
        <source>No run to show.
Start a training run, or open a past run from the runs table.</source>
        <translation>没有可显示的运行。
请开始一个训练运行，或从运行列表中打开以前的运行。</translation>
    </message>
    <message>
        <source>Training epoch %1 of %2.
The charts appear after the first validation.</source>
        <translation>正在训练第 %1 / %2 轮。
首次验证后显示图表。</translation>
    </message>
    <message>
        <source>epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>Export Chart as PNG…</source>
        <translation>将图表导出为 PNG…</translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>None of the selected runs has finished an epoch yet.</source>
        <translation>所选运行都还没有完成一轮。</translation>
    </message>
    <message>
        <source>Worst Images at Epoch %1</source>
        <translation>第 %1 轮最差的图像</translation>
    </message>
    <message>
        <source>Confusion Matrix at Epoch %1</source>
        <translation>第 %1 轮的混淆矩阵</translation>
    </message>
    <message>
        <source>L1 box loss</source>
        <translation>L1 边框损失</translation>
    </message>
    <message>
        <source>DFL / L1 box loss</source>
        <translation>DFL / L1 边框损失</translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainingRunModel</name>
    <message>
        <source>%1 info: run started: %2, %3 epochs, %4 train / %5 val images, run folder %6</source>
        <translation>%1 信息：运行已开始：%2，%3 轮，%4 张训练集 / %5 张验证集图像，运行文件夹 %6</translation>
    </message>
    <message>
        <source>%1 info: saved %2 weights after epoch %3: %4</source>
        <translation>%1 信息：第 %3 轮后保存了 %2 权重：%4</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>The run folder %1 has neither events.jsonl nor results.csv.</source>
        <translation>运行文件夹 %1 中既没有 events.jsonl，也没有 results.csv。</translation>
    </message>
    <message>
        <source>%1 platform: %2</source>
        <translation>%1 平台：%2</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>; the run was cancelled on the platform</source>
        <translation>；该运行已在平台上取消</translation>
    </message>
    <message>
        <source>%1 advice: %2</source>
        <translation>%1 建议：%2</translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainingView</name>
    <message>
        <source>The trainer&apos;s log appears here.</source>
        <translation>训练进程的日志会显示在这里。</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <source>epoch %1/%2</source>
        <translation>第 %1/%2 轮</translation>
    </message>
    <message>
        <source> · batch %1/%2</source>
        <translation> · 批次 %1/%2</translation>
    </message>
    <message>
        <source> · %1 images/s</source>
        <translation> · %1 张/秒</translation>
    </message>
    <message>
        <source> (%1 ranks: %2)</source>
        <translation>（%1 个进程：%2）</translation>
    </message>
    <message>
        <source> (%1 ranks: %2–%3 each)</source>
        <translation>（%1 个进程：每个 %2–%3）</translation>
    </message>
    <message>
        <source> · elapsed %1</source>
        <translation> · 已用 %1</translation>
    </message>
    <message>
        <source> · ETA %1</source>
        <translation> · 预计剩余 %1</translation>
    </message>
    <message>
        <source>No run selected.</source>
        <translation>未选择运行。</translation>
    </message>
    <message>
        <source> Best mAP50-95 %1 at epoch %2.</source>
        <translation> 最佳 mAP50-95 为 %1，在第 %2 轮。</translation>
    </message>
    <message>
        <source>Training.</source>
        <translation>训练中。</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>已完成。</translation>
    </message>
    <message>
        <source>Stopped early: no improvement within the patience.</source>
        <translation>已提前停止：在耐心值轮次内没有改进。</translation>
    </message>
    <message>
        <source>Stopped; weights were saved and the run can be resumed.</source>
        <translation>已停止；权重已保存，可以恢复运行。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>The trainer crashed: %1</source>
        <translation>训练进程崩溃：%1</translation>
    </message>
    <message>
        <source>No system samples yet. The trainer reports GPU, CPU and memory every 2 seconds.</source>
        <translation>尚无系统采样。训练进程每 2 秒报告一次 GPU、CPU 和内存。</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>%1 / %2 MB</source>
        <translation>%1 / %2 MB</translation>
    </message>
    <message>
        <source>GPU temperature</source>
        <translation>GPU 温度</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>CPU load</source>
        <translation>CPU 负载</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Trainer memory</source>
        <translation>训练进程内存</translation>
    </message>
    <message>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>%1 ranks, %2 images/s in total</source>
        <translation>%1 个进程，共 %2 张图像/秒</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>进程 %1</translation>
    </message>
    <message>
        <source>%1 images/s</source>
        <translation>%1 张图像/秒</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>%p% (epoch %1 of %2)</source>
        <translation>%p%（第 %1 / %2 轮）</translation>
    </message>
    <message>
        <source>no run</source>
        <translation>无运行</translation>
    </message>
    <message>
        <source>System metrics are shown for one run at a time: open a single run.</source>
        <translation>系统指标一次只显示一个运行的：请打开单个运行。</translation>
    </message>
    <message>
        <source>no NVIDIA GPU found (training on the CPU)</source>
        <translation>未找到 NVIDIA GPU（在 CPU 上训练）</translation>
    </message>
    <message>
        <source>Open a single run to see its log.</source>
        <translation>打开单个运行以查看其日志。</translation>
    </message>
    <message>
        <source>Comparing runs: %1.</source>
        <translation>正在比较运行：%1。</translation>
    </message>
    <message>
        <source> Planner: no estimate for this run (this machine was not calibrated for it).</source>
        <translation>规划器：此次运行没有预估（本机尚未为它校准）。</translation>
    </message>
    <message>
        <source> Planner: estimated %1 (%2–%3), took %4 (%5 %).</source>
        <translation>规划器：预估 %1（%2–%3），实际用时 %4（%5 %）。</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>图片</translation>
    </message>
</context>
<context>
    <name>osprey::ui::ValidationQueue</name>
    <message>
        <source>Cannot open the worst images: %1</source>
        <translation>无法打开最差的图像：%1</translation>
    </message>
    <message>
        <source>1 image</source>
        <translation>1 张图像</translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation>%1 张图像</translation>
    </message>
    <message>
        <source>&lt;b&gt;Worst images at epoch %1&lt;/b&gt; of run %2: %3, the most false positives and missed labels per object first. Dashed: the model&apos;s detections at that epoch; red: a false positive or a missed label, magenta: a wrong class, yellow: a low-IoU match. D/A walk it.</source>
        <translation>运行 %2 &lt;b&gt;第 %1 轮最差的图像&lt;/b&gt;：%3，按每个目标的误检和漏检标注从多到少排列。虚线：模型在该轮的检测结果；红色：误检或漏检的标注，品红：类别错误，黄色：低 IoU 匹配。用 D/A 逐一查看。</translation>
    </message>
    <message>
        <source>Reading the validation results…</source>
        <translation>正在读取验证结果…</translation>
    </message>
    <message>
        <source>epoch %1 has no validation results in %2</source>
        <translation>第 %1 轮在 %2 中没有验证结果</translation>
    </message>
    <message>
        <source>no epoch has been validated yet</source>
        <translation>还没有任何一轮完成验证</translation>
    </message>
    <message>
        <source>&lt;b&gt;Confusion matrix, epoch %1&lt;/b&gt; of run %2: labelled %3, detected %4: %5, the worst first. Dashed: the model&apos;s detections at that epoch. D/A walk it.</source>
        <translation>运行 %2 &lt;b&gt;第 %1 轮的混淆矩阵&lt;/b&gt;：标注为 %3、检测为 %4：%5，最差的优先。虚线：模型在该轮的检测结果。用 D/A 逐一查看。</translation>
    </message>
    <message>
        <source>No image to show: the list is empty</source>
        <translation>没有可显示的图像：列表为空</translation>
    </message>
    <message>
        <source>Worst images: %1 to check</source>
        <translation>最差的图像：%1 待检查</translation>
    </message>
    <message>
        <source>background</source>
        <translation>背景</translation>
    </message>
    <message>
        <source>FP %1</source>
        <translation>误检 %1</translation>
    </message>
    <message>
        <source>wrong class? %1</source>
        <translation>类别错误？%1</translation>
    </message>
    <message>
        <source>low IoU %1</source>
        <translation>低 IoU %1</translation>
    </message>
    <message>
        <source>labelled %1: another class detected</source>
        <translation>标注为 %1：检测到其他类别</translation>
    </message>
    <message>
        <source>labelled %1: found at low IoU</source>
        <translation>标注为 %1：以低 IoU 检出</translation>
    </message>
    <message>
        <source>FN: %1 missed</source>
        <translation>漏检：%1</translation>
    </message>
</context>
<context>
    <name>osprey::ui::VideoImportDialog</name>
    <message>
        <source>Import Videos as Frames</source>
        <translation>将视频导入为帧</translation>
    </message>
    <message>
        <source>A video file, or a folder of videos (.mp4, .avi, .mov, .mkv, …)</source>
        <translation>一个视频文件，或一个视频文件夹（.mp4、.avi、.mov、.mkv 等）</translation>
    </message>
    <message>
        <source>Video…</source>
        <translation>视频…</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>Videos:</source>
        <translation>视频：</translation>
    </message>
    <message>
        <source>Choose a video or a folder, then Import.</source>
        <translation>选择一个视频或文件夹，然后点击“导入”。</translation>
    </message>
    <message>
        <source>What each video gave appears here.</source>
        <translation>每个视频的导入结果将显示在这里。</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>Videos (*.mp4 *.avi *.mov *.mkv *.webm *.m4v *.mpg *.mpeg *.wmv);;All files (*)</source>
        <translation>视频 (*.mp4 *.avi *.mov *.mkv *.webm *.m4v *.mpg *.mpeg *.wmv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Folder of videos</source>
        <translation>视频文件夹</translation>
    </message>
    <message>
        <source>Choose a video or a folder first.</source>
        <translation>请先选择一个视频或文件夹。</translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <source>Import failed.</source>
        <translation>导入失败。</translation>
    </message>
    <message>
        <source>Keep importing from this folder (new images and videos as they arrive)</source>
        <translation>持续从此文件夹导入（新图像和视频到达时即导入）</translation>
    </message>
    <message>
        <source>Watches the folder until Stop: each new image or video is taken once, also after Osprey starts again (osprey-cli import watch=true does the same).</source>
        <translation>监视该文件夹直到点击“停止”：每个新图像或视频只接收一次，Osprey 重新启动后也是如此（与 osprey-cli import watch=true 导入方式相同）。</translation>
    </message>
    <message>
        <source>Start Watching</source>
        <translation>开始监视</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Watching %1 for images and videos…</source>
        <translation>正在监视 %1 中的图像和视频…</translation>
    </message>
</context>
</TS>
