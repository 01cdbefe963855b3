#pragma once
// ImagePyramid: a decoded image and its half-size levels, so that any zoom draws from a level at most
// twice the size on screen and only the visible part of it. This keeps zooming and panning smooth on
// 24-megapixel images. Built off the GUI thread (build() is thread-safe); immutable afterwards.

#include <QImage>
#include <memory>
#include <vector>

class QPainter;

namespace osprey::ui {

class ImagePyramid {
public:
    /// Decodes `filePath` (EXIF orientation applied) and builds the levels. Null pyramid on failure,
    /// with `error` filled.
    static std::shared_ptr<const ImagePyramid> load(const QString& filePath, QString* error = nullptr);
    /// Builds the levels from an already decoded image.
    static std::shared_ptr<const ImagePyramid> fromImage(QImage image);

    QSize size() const { return m_levels.empty() ? QSize() : m_levels.front().size(); }
    int levelCount() const { return static_cast<int>(m_levels.size()); }
    const QImage& level(int index) const { return m_levels[static_cast<size_t>(index)]; }
    /// Bytes held by all levels.
    qint64 bytes() const;

    /// Draws the part of the image that falls inside `clipWidget`, with image pixel (0,0) at `originWidget`
    /// and `scale` widget pixels per image pixel.
    void draw(QPainter& painter, QPointF originWidget, double scale, const QRectF& clipWidget) const;

private:
    std::vector<QImage> m_levels;
};

} // namespace osprey::ui
