#include "formats/dataset.h"

namespace osprey::formats {

std::size_t Dataset::boxCount() const {
    std::size_t count = 0;
    for (const auto& image : images)
        count += image.boxes.size();
    return count;
}

int Dataset::classIndex(const std::string& name) const {
    for (std::size_t i = 0; i < classes.size(); ++i)
        if (classes[i].name == name)
            return static_cast<int>(i);
    return -1;
}

int Dataset::ensureClass(const std::string& name) {
    const int index = classIndex(name);
    if (index >= 0)
        return index;
    classes.push_back({name, {}});
    return static_cast<int>(classes.size()) - 1;
}

project::ImageStatus statusFor(LabelState labels) {
    switch (labels) {
    case LabelState::Missing:
        return project::ImageStatus::New;
    case LabelState::Empty:
        return project::ImageStatus::VerifiedEmpty;
    case LabelState::Present:
        return project::ImageStatus::Labeled;
    }
    return project::ImageStatus::New;
}

} // namespace osprey::formats
