package io.pmedia.graphics.draw;

import org.jetbrains.skia.Path;

import io.pmedia.graphics.error.SceneException;

/**
 * The outline of a shape in its box ({@code x}, {@code y}, {@code width}, {@code height} in pixels): a rectangle,
 * a rounded rectangle, an ellipse filling the box, a line from the box's top-left to its bottom-right corner, or
 * SVG path data in the box's coordinates.
 */
public sealed interface Geometry {

    double x();

    double y();

    double width();

    double height();

    record Rect(double x, double y, double width, double height) implements Geometry {
    }

    record RoundedRect(double x, double y, double width, double height, double radius) implements Geometry {
    }

    record Ellipse(double x, double y, double width, double height) implements Geometry {
    }

    record Line(double x, double y, double width, double height) implements Geometry {
    }

    /** SVG path data, parsed once: build it with {@link #path}. */
    record SvgPath(double x, double y, double width, double height, String data, Path parsed) implements Geometry {
    }

    /**
     * SVG path data ({@code d} of an SVG {@code <path>}), drawn at (x, y).
     *
     * @param path the JSON path of {@code data}, named when it does not parse
     */
    static SvgPath path(double x, double y, double width, double height, String data, String path) {
        if (data == null || data.isBlank()) {
            throw new SceneException(path, "path data is empty");
        }
        if (data.length() > 20_000) {
            throw new SceneException(path, "path data is longer than 20000 characters");
        }
        if (!data.strip().matches("(?s)[MmZzLlHhVvCcSsQqTtAaEe0-9.,+\\-\\s]*") || !data.strip().matches("(?s)[Mm].*")) {
            throw new SceneException(path, "not SVG path data (it starts with M and holds only path commands and"
                    + " numbers)");
        }
        Path parsed;
        try {
            parsed = Path.Companion.makeFromSVGString(data);
        } catch (RuntimeException e) {
            throw new SceneException(path, "SVG path data does not parse: " + e.getMessage());
        }
        if (parsed == null) {
            throw new SceneException(path, "SVG path data does not parse");
        }
        return new SvgPath(x, y, width, height, data, parsed);
    }
}
