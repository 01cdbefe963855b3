// YOLOv8 detection (Ultralytics yolov8.yaml): CSP-Darknet backbone with C2f blocks, SPPF, a PAN neck
// and the anchor-free Detect head on P3/P4/P5.
#include "model/layer_builder_impl.h"

namespace osprey::model {

void buildYoloV8(DetectionModel& model) {
    LayerBuilder b(model);
    b.conv(64, 3, 2);     // 0  P1/2
    b.conv(128, 3, 2);    // 1  P2/4
    b.c2f(128, 3, true);  // 2
    b.conv(256, 3, 2);    // 3  P3/8
    b.c2f(256, 6, true);  // 4
    b.conv(512, 3, 2);    // 5  P4/16
    b.c2f(512, 6, true);  // 6
    b.conv(1024, 3, 2);   // 7  P5/32
    b.c2f(1024, 3, true); // 8
    b.sppf(1024, 5);      // 9

    b.upsample();          // 10
    b.concat({-1, 6});     // 11 backbone P4
    b.c2f(512, 3, false);  // 12
    b.upsample();          // 13
    b.concat({-1, 4});     // 14 backbone P3
    b.c2f(256, 3, false);  // 15 P3/8 out
    b.conv(256, 3, 2);     // 16
    b.concat({-1, 12});    // 17 head P4
    b.c2f(512, 3, false);  // 18 P4/16 out
    b.conv(512, 3, 2);     // 19
    b.concat({-1, 9});     // 20 head P5
    b.c2f(1024, 3, false); // 21 P5/32 out
    b.detect({15, 18, 21}, HeadStyle::V8);
}

} // namespace osprey::model
