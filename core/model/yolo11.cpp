// YOLO11 detection (Ultralytics yolo11.yaml): C3k2 blocks instead of C2f, C2PSA attention after SPPF,
// and a Detect head whose class branch uses depthwise-separable convolutions.
#include "model/layer_builder_impl.h"

namespace osprey::model {

void buildYolo11Stem(LayerBuilder& b) {
    b.conv(64, 3, 2);            // 0  P1/2
    b.conv(128, 3, 2);           // 1  P2/4
    b.c3k2(256, 2, false, 0.25); // 2
    b.conv(256, 3, 2);           // 3  P3/8
    b.c3k2(512, 2, false, 0.25); // 4
    b.conv(512, 3, 2);           // 5  P4/16
    b.c3k2(512, 2, true, 0.5);   // 6
    b.conv(1024, 3, 2);          // 7  P5/32
    b.c3k2(1024, 2, true, 0.5);  // 8
}

void buildYolo11(DetectionModel& model) {
    LayerBuilder b(model);
    buildYolo11Stem(b);
    b.sppf(1024, 5);  // 9
    b.c2psa(1024, 2); // 10

    b.upsample();               // 11
    b.concat({-1, 6});          // 12 backbone P4
    b.c3k2(512, 2, false, 0.5); // 13
    b.upsample();               // 14
    b.concat({-1, 4});          // 15 backbone P3
    b.c3k2(256, 2, false, 0.5); // 16 P3/8 out
    b.conv(256, 3, 2);          // 17
    b.concat({-1, 13});         // 18 head P4
    b.c3k2(512, 2, false, 0.5); // 19 P4/16 out
    b.conv(512, 3, 2);          // 20
    b.concat({-1, 10});         // 21 head P5
    b.c3k2(1024, 2, true, 0.5); // 22 P5/32 out
    b.detect({16, 19, 22}, HeadStyle::V11);
}

} // namespace osprey::model
