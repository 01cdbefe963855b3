<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AcceptProposalsCommand</name>
    <message>
        <source>Accept Proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accept %1 Proposals</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AddBoxCommand</name>
    <message>
        <source>Add Box</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AddClassCommand</name>
    <message>
        <source>Add Class %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChangeBoxClassCommand</name>
    <message>
        <source>Set Class to %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DeleteBoxesCommand</name>
    <message>
        <source>Delete Box</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete %1 Boxes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EditClassCommand</name>
    <message>
        <source>Rename Class %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recolour Class %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reorder Class %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelFileChooser</name>
    <message>
        <source>Models (*.pt *.onnx *.cfg);;Osprey checkpoints (*.pt);;ONNX (*.onnx);;Darknet (*.cfg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Darknet Weights for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Darknet weights (*.weights)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class Names for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Names files (*.names *.txt)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MoveBoxesCommand</name>
    <message>
        <source>Move Box</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move %1 Boxes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PasteBoxesCommand</name>
    <message>
        <source>Paste Boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste Boxes from Previous Image</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Exported %1 images and %2 boxes to %3 (%4 unlabeled left out).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… and %1 more
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format: %1
Images: %2
Boxes: %3
Classes: %4
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
%1 problems:
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported with format %1: %2 images, %3 boxes, %4 new classes.
Unlabeled: %5, verified empty: %6, already in the project: %7, crowd skipped: %8.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split applied: %1 images changed split, %2 locked images kept, %3 grouped with an identical image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ResizeBoxCommand</name>
    <message>
        <source>Resize Box</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SetImageStatusCommand</name>
    <message>
        <source>Mark Image %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Label images and train object detectors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project folder to open.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::run::Options</name>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network: yolov8n/s/m/l/x or yolo11n/s/m/l/x. n (nano) is fastest; s, m, l and x are larger, slower and usually more accurate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pretrained weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start from this checkpoint (.pt); class outputs reset when nc differs. Empty trains from scratch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training epochs: passes over the training images.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image side in pixels (a multiple of 32). Larger finds smaller objects but trains slower.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images per batch. Lower it if memory runs out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cpu, or a CUDA device index such as 0. A GPU needs an osprey-cli built with CUDA LibTorch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimiser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto, SGD or AdamW. auto picks AdamW for short runs and SGD for long ones, with its own learning rate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Initial learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Initial learning rate (ignored by optimizer=auto).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patience</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop after this many epochs without a better mAP50-95.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mosaic probability</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chance of combining four images into one training image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close mosaic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch mosaic off for this many final epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Horizontal flip probability</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chance of mirroring an image left to right.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loader threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data loader threads that decode and augment images.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run folder name under &lt;project&gt;/runs (default train, train2, ...); the run&apos;s name on the platform.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random seed; the same seed repeats the same run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final learning rate as a fraction of lr0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SGD momentum / AdamW beta1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight decay (scaled by batch x accumulate / 64).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warmup length in epochs (at least 100 iterations).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine learning-rate schedule instead of linear.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hue jitter gain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saturation jitter gain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value jitter gain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random translation fraction.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random scale gain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue the run name= (or the latest run) from weights/last.pt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Torch CPU threads; 0 = all cores.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mixed precision on CUDA (bf16).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nominal batch: gradients accumulate to this many images per step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Momentum at the start of warmup.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bias learning rate at the start of warmup.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Box (CIoU) loss gain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classification loss gain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distribution focal loss gain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NMS confidence threshold.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NMS IoU threshold.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detections kept per image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validate after each epoch (the fitness needs it).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::AnnotationEditor</name>
    <message>
        <source>Cannot read this image: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No unlabeled image left in this list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marked reviewed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marked verified empty: this image has no objects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::AnnotationSession</name>
    <message>
        <source>Add a class first (Class ▸ Add Class…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The previous image has no boxes to paste</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This image has boxes, so it is not empty. Delete its boxes first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied 1 box</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied %1 boxes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::AssistBar</name>
    <message>
        <source>Suggest (I)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the model on this image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggest boxes on every image as it opens (Shift+I)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence: proposals scoring below it are hidden</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IoU: a proposal overlapping a better one of its class by more than this is hidden</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IoU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>suggesting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model that suggests boxes: an Osprey checkpoint (.pt), an ONNX detector or a Darknet .cfg with its .weights and names. The arrow offers to follow the training runs instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose Model File…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the Active Training Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the best.pt written last under this project&apos;s runs, and reload it each time training saves a better one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review Queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Walk the images whose model boxes nobody has checked yet, likeliest mistakes first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for a run…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::AssistController</name>
    <message>
        <source>Could not remember the model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a Model for Suggestions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggesting boxes with %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggestion failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added the model&apos;s %1 classes to the project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None of the model&apos;s %1 classes is a class of this project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 proposal: Enter accepts, X rejects, Shift+Enter accepts all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 proposals: Enter accepts, X rejects, Shift+Enter accepts all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of run %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not remember the setting: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Following the training runs: no run has saved a best.pt yet; the first one will be loaded when it is written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Following run %1: using its best.pt saved at %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::AutoLabelDialog</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processed: %1 of %2 images in %3 (%4 images/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images that received boxes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boxes stored (source: model, with their scores): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reviewed images that received boxes and went back to labeled, for review: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images skipped because they could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  … and %1 more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped early: the processed images keep their boxes. Images left unchanged: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-label is not on the undo stack. Delete unwanted boxes in the editor, or run again with &quot;Replace earlier model boxes&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace mode: the editor&apos;s undo history is cleared, since it may refer to replaced model boxes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-Label Images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model yet: choose an Osprey checkpoint, ONNX or Darknet model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class &amp;Mapping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which project class each model class becomes, or ignore it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unlabeled images (status new)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boxes scoring at or below this are not stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Non-maximum suppression: a box overlapping a better one of its class above this IoU is dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add to the existing boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace earlier model boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace deletes the image&apos;s earlier boxes from a model first; manual and imported boxes always stay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic: only when the project has no classes yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yes: add the model classes the project lacks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No: ignore the model classes the project lacks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>M&amp;odel:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Images:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Co&amp;nfidence:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Io&amp;U threshold:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mo&amp;de:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add missing &amp;classes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the images and thresholds, then Start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The summary of the run appears here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop after the current batch; the images labelled so far keep their boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Review Them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close this dialog and walk the images that got boxes, the least confident first (the review queue)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class names: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot count the images: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No image matches: nothing to do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images to process: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the project: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot load the model.
%1
Pick another model with the Choose… button.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model loaded; running it on the first batch of images…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2 images, %3 images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, under a second left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, about %1 left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping after the current batch…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-label failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images processed before the error keep their boxes: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop Auto-Label?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-label is still running. Stop it after the current batch and close?
The images processed so far keep their boxes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a Model for Auto-Label</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::BoxCanvas</name>
    <message>
        <source>No project open

File ▸ Open Project… (Ctrl+O)
File ▸ New Project… (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an image in the list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>   next box: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>   boxes hidden (H)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1   %2 × %3   %4   %5   %6%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 box</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 boxes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::CheatSheetDialog</name>
    <message>
        <source>Keyboard Shortcuts Cheat Sheet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>—</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> or </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag on empty space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw a box</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click / Ctrl+click</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a box / add to the selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select the next of several overlapping boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shift+drag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select the boxes inside a rectangle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag a box / a handle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move it / resize it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wheel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom around the cursor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Space+drag or middle drag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mouse</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ClassMappingDialog</name>
    <message>
        <source>Class Mapping for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the classes of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boxes of ignored classes are not stored. The mapping is saved in the project for this model file and used by every later auto-label run, in the application and in osprey-cli.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Match by Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map every model class to the project class of the same name, ignoring the saved mapping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the classes of %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the saved class mapping: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project class for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(ignore)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(add as new class)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot add the new classes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the class mapping: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mapped: %1 of %2 model classes; the others are ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classes to add to the project on Save: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter classes (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ClassPanel</name>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click: use this class for new boxes. Double-click: rename.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change the colour of the selected class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the selected class up (its digit key changes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the selected class down (its digit key changes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key %1 gives the selected boxes this class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class Colour</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ClassPickerDialog</name>
    <message>
        <source>Choose Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type to search classes…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::DatasetActions</name>
    <message>
        <source>&amp;Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Split…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Health Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+H</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;tatistics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::EditorActions</name>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard &amp;Cheat Sheet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Draw Box</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>De&amp;lete Box</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy Boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Paste Boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste Boxes from &amp;Previous Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select &amp;All Boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select &amp;Next Box</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N&amp;udge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 by %2 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fit to Window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Actual Pixels (1:1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Hide Boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Previous Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next &amp;Unlabeled Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark &amp;Reviewed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark &amp;Verified Empty (No Objects)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Choose Class…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model &amp;Proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Suggest Boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggest on &amp;Every Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose &amp;Model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Accept Proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reject Proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accept A&amp;ll Proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear Proposals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto-Label &amp;Images…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class Ma&amp;pping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Follow the Active Training Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the best.pt written last under the project&apos;s runs, reloaded each time training saves a better one</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ExportDialog</name>
    <message>
        <source>Export Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output folder (created when missing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link to the project&apos;s images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Labels only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave out images that are not labeled yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep them (with empty labels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unlabeled images:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verified-empty images are exported with empty label files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a destination folder first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::GpuProbe</name>
    <message>
        <source>no NVIDIA GPU found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no NVIDIA GPU: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1: %2 (%3 GB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::HealthPanel</name>
    <message>
        <source>imgsz </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training size: boxes smaller than 4 px at this size are reported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decode images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decode every image to find corrupt files (slower)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the check to find missing or corrupt images, bad boxes and duplicates.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The check did not finish: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 images, %2 boxes: no errors found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 images, %2 boxes: problems found; errors block training.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click to open this image</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageListDelegate</name>
    <message>
        <source>1 box</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 boxes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageListModel</name>
    <message>
        <source>%1
%2 x %3 px, %4, %5 boxes, split %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>labeled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reviewed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verified empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>val</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(image %1 was deleted)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageListPanel</name>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only images with this status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only images in this split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only images with at least one box of this class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave this order and show the filtered image list again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 images in this order (%2 in the project)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImportDialog</name>
    <message>
        <source>Import Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A dataset folder (YOLO, VOC, images) or a COCO JSON file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional: where the images are, when not beside the labels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep, flagged as crowd (evaluation ignores them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strict: abort on any problem, warnings included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By default valid items are imported and every skipped item is listed. In strict mode any problem aborts and the project stays exactly as it was.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>COCO crowd boxes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a source, then Preview.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The preview and the import summary appear here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dataset folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Annotation file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Annotations (*.json *.yaml *.yml *.data *.txt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a source first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the source…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import failed; the project is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview of the source (nothing imported yet).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::LiveRun</name>
    <message>
        <source>A run is already in progress. Stop it before starting another.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trainer %1 was not found. Reinstall Osprey, or build the osprey-cli target.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>$ osprey-cli %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping: the trainer finishes the batch and saves last.pt…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ending the trainer without waiting for it to save…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run goes on in the background (process %1). Open it from the runs table to see its progress.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trainer process crashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trainer exited with code %1 without reporting the end of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Last output: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>. Weights up to the last saved checkpoint are kept; resume the run to continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::MainWindow</name>
    <message>
        <source>Images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a project to start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New Project…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Project…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Osprey</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Osprey</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Osprey %1&lt;/b&gt;&lt;p&gt;Label images, train YOLO detectors and watch them learn.&lt;/p&gt;&lt;p&gt;Licensed under the GNU GPL v3 or later.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2 images, %3 classes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose an empty folder for the new project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a project folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No recent projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — Osprey</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Osprey</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Platform…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::PlatformSettingsDialog</name>
    <message>
        <source>from the ULTRALYTICS_API_KEY environment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stored in the OS keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stored in the settings file (readable only by you)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stream training runs to a platform dashboard (Ultralytics Platform or a compatible server) and upload the trained weights there. Create an API key in the platform&apos;s settings and paste it here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The platform&apos;s address. Empty uses %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the stored key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paste a new key (ul_…) to replace the stored one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is stored in the OS keychain where one runs, otherwise in a settings file only you can read. It is never shown or logged in clear.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the platform whose key this is (the typed key, or else the stored one).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the stored key from this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the platform…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no key to test: paste one above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key rejected (%1): the platform does not accept this key. Check that the whole key was copied, or create a new one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The platform at %1 could not check the key: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The platform at %1 answered, but not with an account; is this the right URL?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The platform URL must be an https:// address, e.g. %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The settings could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the stored platform key from this computer? Runs can no longer stream until a key is stored again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key could not be removed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no key stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ULTRALYTICS_API_KEY is set in the environment; it takes precedence over a stored key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ULTRALYTICS_PLATFORM_URL is set in the environment; it takes precedence over the URL saved here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key works: signed in as %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key saved, %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform URL saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It does not look like a platform key (ul_ and 40 hex digits); use Test to check it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key removed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ProjectDocument</name>
    <message>
        <source>unknown class %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::RemoteStatusWidget</name>
    <message>
        <source>Platform: connecting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform: connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform: unreachable, retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform: unreachable (%1), retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform: key rejected (401) · reporting stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform: off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform: off (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · cancelled on the platform</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last error: %1
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events are kept in the project&apos;s outbox and sent, in order, when the platform answers again. Nothing is lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run was cancelled on the platform: training stops at the end of the epoch, then uploads its weights.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The platform rejected some events; they are not retried.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the run on the platform ↗</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uploading weights: %1 / %2 MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload interrupted at %1 / %2 MB; it is retried</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights uploaded: %1 MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uploading weights…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The platform did not accept the API key. Training goes on locally; check or replace the key in Settings → Platform, then send the queued events with: osprey-cli remote sync project=&lt;project folder&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The queued events stay in the project&apos;s outbox; send them later with: osprey-cli remote sync project=&lt;project folder&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform: done · %1 still queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform: done · %1 delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 rejected</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ReviewQueueActions</name>
    <message>
        <source>Review Queue: &amp;Lowest Confidence First</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Walk the images with unchecked model boxes, the least confident first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review Queue: Most &amp;Disagreement First</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Walk the images where the model boxes and the existing labels disagree most (false positives and missed boxes at IoU 0.5) first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot build the review queue: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No image needs review: every image with model boxes has been reviewed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>D/A walk it, Space marks an image reviewed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the review queue…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to compare: the images that need review (%1) have no manual or imported labels; use the confidence order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Review queue&lt;/b&gt;, most disagreement with the labels first: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Review queue&lt;/b&gt;, lowest model confidence first: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left out: %1 without labels to compare.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review queue: %1 to check</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::RunViewer</name>
    <message>
        <source>Stopping the background trainer (process %1): it finishes the batch and saves last.pt…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run&apos;s trainer (process %1) is not running any more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the trainer (process %1) ended without finishing the run; resume it from last.pt</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::RunsTable</name>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best mAP50-95</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select one run to see its charts, or several (Ctrl+click) to compare them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No runs yet in this project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the selected run&apos;s charts (double-click a row does the same); with several runs selected, overlay their charts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue the selected stopped run from its last.pt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Runs&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the runs table: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (epoch %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>–</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare %1 Runs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Menu</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a shortcut and press the new keys. Backspace clears it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is used by both “%2” and “%3”</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::SplitDialog</name>
    <message>
        <source>Split Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same seed gives the same split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Val:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stratified by class. Identical images stay in one split; locked images keep theirs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At least one fraction must be above zero.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Splitting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::StatisticsPanel</name>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boxes per class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Box size relative to the image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boxes per image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing statistics…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot compute statistics: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 images (%2 labeled, %3 verified empty, %4 not labeled yet), %5 boxes, %6 classes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>val</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>width / image width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>height / image height</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relative size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>boxes in the image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>images</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainActions</name>
    <message>
        <source>&amp;Train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training &amp;Dashboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+T</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;top Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training in progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;A training run is in progress.&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Keep training in the background&lt;/b&gt;: the run goes on after Osprey closes and writes its charts and weights to the run folder; open it later from the runs table.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Stop and save&lt;/b&gt;: the trainer finishes the current batch and saves last.pt, so the run can be resumed.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep Training in Background</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop and Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping the run: the trainer finishes its batch and saves last.pt…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End Now Without Saving</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping training</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainForm</name>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stream to platform</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send live metrics to the platform dashboard and upload the weights at the end. Needs an API key (Settings → Platform). Events wait in the project&apos;s outbox while the platform cannot be reached; training never waits for them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Platform project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The platform project to stream to, as user/project. Remembered for this project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user/project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stream to platform is on, but the platform project is missing. Enter it as user/project, or turn streaming off.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainPanel</name>
    <message>
        <source>Start Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finish the current batch, save last.pt and end the run; it can be resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a stopped run to resume.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A run is already in progress. Stop it before starting another.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>looking for NVIDIA GPUs…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the dataset, then train a detector on this project&apos;s train split, validating on the val split.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The dataset check is still running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the dataset before training…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: could not remember the platform project for this project: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel Dataset Check</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainPreflight</name>
    <message>
        <source>, e.g. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dataset check before training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 images, %2 boxes checked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Training cannot start: the dataset has errors.&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix them (Dataset → Health Check lists every finding and opens the image), then start again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;The dataset has warnings.&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;The dataset check could not run.&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training can go on, but these may cost accuracy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start Anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainerProcess</name>
    <message>
        <source>A trainer is already running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the folder %1 for the trainer&apos;s output.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainingCharts</name>
    <message>
        <source>Box loss (CIoU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>val</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class loss (BCE)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DFL loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mAP (val)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mAP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mAP50</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mAP50-95</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision and recall (val)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fraction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pg0 weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pg1 BatchNorm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pg2 biases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logarithmic loss axes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the three loss charts on a log scale, which makes late, small improvements visible.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run to show.
Start a training run, or open a past run from the runs table.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training epoch %1 of %2.
The charts appear after the first validation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Chart as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None of the selected runs has finished an epoch yet.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainingRunModel</name>
    <message>
        <source>%1 info: run started: %2, %3 epochs, %4 train / %5 val images, run folder %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 info: saved %2 weights after epoch %3: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run folder %1 has neither events.jsonl nor results.csv.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 platform: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; the run was cancelled on the platform</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainingView</name>
    <message>
        <source>The trainer&apos;s log appears here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · batch %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 images/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · elapsed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · ETA %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run selected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Best mAP50-95 %1 at epoch %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped early: no improvement within the patience.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped; weights were saved and the run can be resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trainer crashed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No system samples yet. The trainer reports GPU, CPU and memory every 2 seconds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2 MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trainer memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%p% (epoch %1 of %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System metrics are shown for one run at a time: open a single run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no NVIDIA GPU found (training on the CPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a single run to see its log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing runs: %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
