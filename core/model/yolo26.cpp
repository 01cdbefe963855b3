// YOLO26 detection (Ultralytics yolo26.yaml, spec yolo26 §1): YOLO11 with an SPPF that adds its input (and
// has no activation on cv1), C3k blocks in the neck at every scale, attention inside the last C3k2, and an
// end-to-end Detect head: reg_max 1 (no DFL) and a second, one-to-one pair of branches read without NMS.
#include "model/layer_builder_impl.h"

namespace osprey::model {

void buildYolo26(DetectionModel& model) {
    LayerBuilder b(model);
    buildYolo11Stem(b);    // 0-8: yolo11.yaml's, row for row
    b.sppf(1024, 5, true); // 9  SPPF(1024, 5, 3, True)
    b.c2psa(1024, 2);      // 10

    b.upsample();                     // 11
    b.concat({-1, 6});                // 12 backbone P4
    b.c3k2(512, 2, true, 0.5);        // 13
    b.upsample();                     // 14
    b.concat({-1, 4});                // 15 backbone P3
    b.c3k2(256, 2, true, 0.5);        // 16 P3/8 out
    b.conv(256, 3, 2);                // 17
    b.concat({-1, 13});               // 18 head P4
    b.c3k2(512, 2, true, 0.5);        // 19 P4/16 out
    b.conv(512, 3, 2);                // 20
    b.concat({-1, 10});               // 21 head P5
    b.c3k2(1024, 1, true, 0.5, true); // 22 P5/32 out, attention
    b.detect({16, 19, 22}, HeadStyle::V11, /*regMax=*/1, /*endToEnd=*/true);
}

} // namespace osprey::model
