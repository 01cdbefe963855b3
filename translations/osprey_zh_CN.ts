<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
</context>
<context>
    <name>osprey::ui::ProjectDocument</name>
    <message>
        <source>unknown class %1</source>
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
        <source>A training run is in progress. Stop it now? The trainer finishes the current batch and saves last.pt, so the run can be resumed later.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainForm</name>
    <message>
        <source>Model family</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The detector architecture: YOLOv8 or YOLO11.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n (nano) is fastest; s, m, l and x are larger, slower and usually more accurate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pretrained weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional .pt checkpoint to start from. Empty trains from scratch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many passes over the training images.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image size (px)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images are letterboxed to this side, a multiple of 32. Larger finds smaller objects but trains slower.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images per step. auto uses the trainer&apos;s default (16). Lower it if memory runs out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cpu, or the index of a CUDA GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimiser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto picks AdamW for short runs and SGD for long ones, with its own learning rate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Initial learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting learning rate; ignored when the optimiser is auto.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patience (epochs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop early after this many epochs without a better mAP50-95.</source>
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
        <source>Close mosaic (epochs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn mosaic off for this many final epochs.</source>
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
        <source>Threads that decode and augment images.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder under runs/. Empty picks train, train2, ... automatically.</source>
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
        <source>auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::TrainPanel</name>
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
        <source>Start Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train a detector on this project&apos;s train split, validating on the val split.</source>
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
        <source>No runs yet in this project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the selected run&apos;s charts (double-click a row does the same).</source>
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
        <source>no NVIDIA GPU (training on the CPU)</source>
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
</context>
</TS>
