package io.pmedia.media.render;

import static io.pmedia.media.render.FilterGraph.color;
import static io.pmedia.media.render.FilterGraph.number;
import static io.pmedia.media.render.FilterGraph.value;
import static io.pmedia.media.render.FilterGraphCompiler.MARGIN_X;
import static io.pmedia.media.render.FilterGraphCompiler.MARGIN_Y;

import java.awt.Font;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TextFont;

/**
 * Text in the filter graph: text layers and burned-in captions, laid out by {@link TextLayout} and drawn with one
 * {@code drawtext} per line. The text itself is written to a file in the work directory and read with
 * {@code textfile=} and {@code expansion=none}: vendor text never enters the graph.
 */
final class TextDrawing {

    private final Fonts fonts;
    private final TemplateDefinition.Canvas canvas;
    private final Path workDir;

    TextDrawing(Fonts fonts, TemplateDefinition.Canvas canvas, Path workDir) {
        this.fonts = fonts;
        this.canvas = canvas;
        this.workDir = workDir;
    }

    /** One drawtext per laid-out line (so that each line is aligned on its own); empty when nothing shows. */
    String text(int k, int j, ResolvedVideo.Text text, ResolvedVideo.Segment segment) {
        int width = canvas.width();
        int height = canvas.height();
        int marginX = (int) Math.round(width * MARGIN_X);
        int marginY = (int) Math.round(height * MARGIN_Y);
        int anchor = switch (text.x()) {
            case "left" -> marginX;
            case "center" -> width / 2;
            case "right" -> width - marginX;
            default -> Integer.parseInt(text.x());
        };
        int available = switch (text.align()) {
            case "left" -> width - marginX - anchor;
            case "right" -> anchor - marginX;
            default -> 2 * Math.min(anchor, width - anchor) - 2 * marginX;
        };
        if (available < Math.min(width - 2 * marginX, 2 * text.size())) {
            available = width - 2 * marginX;
        }
        int maxWidth = text.maxWidth() != null ? text.maxWidth() : available;
        TextLayout.Laid laid = TextLayout.fit(text.text(), fonts.awt(text.font()), text.size(), text.minSize(),
                maxWidth, text.maxLines());
        int lineHeight = (int) Math.round(laid.size() * text.lineHeight());
        int block = (laid.lines().size() - 1) * lineHeight + laid.ascent() + laid.descent();
        int top = switch (text.y()) {
            case "top" -> marginY;
            case "center" -> (height - block) / 2;
            case "bottom" -> height - marginY - block;
            default -> Integer.parseInt(text.y());
        };
        String x = switch (text.align()) {
            case "left" -> Integer.toString(anchor);
            case "right" -> anchor + "-text_w";
            default -> anchor + "-text_w/2";
        };
        StringBuilder common = new StringBuilder()
                .append(":expansion=none:fontsize=").append(laid.size())
                .append(":fontcolor=").append(color(text.color()))
                .append(":x=").append(value(x));
        if (text.boxColor() != null) {
            common.append(":box=1:boxcolor=").append(color(text.boxColor()))
                    .append(":boxborderw=").append(Math.max(2, laid.size() / 4));
        }
        if (text.shadowColor() != null) {
            int offset = Math.max(1, laid.size() / 24);
            common.append(":shadowcolor=").append(color(text.shadowColor()))
                    .append(":shadowx=").append(offset).append(":shadowy=").append(offset);
        }
        String alpha = alpha(text);
        if (alpha != null) {
            common.append(":alpha=").append(value(alpha));
        }
        common.append(SegmentGraph.enable(text, segment));

        List<String> lines = new ArrayList<>();
        for (int i = 0; i < laid.lines().size(); i++) {
            String line = laid.lines().get(i);
            if (line.isBlank()) {
                continue;
            }
            String file = "text-" + k + "-" + j + "-" + i + ".txt";
            SegmentGraph.write(workDir.resolve(file), line);
            int baseline = top + laid.ascent() + i * lineHeight;
            lines.add("drawtext=fontfile=" + value(fonts.file(text.font()).toString()) + ":textfile="
                    + value(file) + common + ":y=" + value(baseline + "-ascent"));
        }
        return String.join(",", lines);
    }

    /**
     * Each caption cue drawn at the bottom while it is shown, one cue at a time (a cue ends where the next begins,
     * as in the WebVTT, see {@link Captions#oneAtATime}): laid out in at most {@value Captions#CUE_LINES} lines,
     * every line drawn, all of them inside one dark box measured with the font FFmpeg draws with.
     */
    void captions(List<Cue> cues, StringBuilder picture) {
        int size = Math.max(12, canvas.height() / 18);
        int margin = (int) Math.round(canvas.height() * MARGIN_Y);
        int width = (int) Math.round(canvas.width() * (1 - 2 * MARGIN_X));
        Font font = fonts.awt(TextFont.DEFAULT.fontName());
        List<Cue> shown = Captions.oneAtATime(cues);
        for (int i = 0; i < shown.size(); i++) {
            Cue cue = shown.get(i);
            TextLayout.Laid laid = TextLayout.fit(cue.text(), font, size, 8, width, Captions.CUE_LINES);
            List<String> lines = laid.lines().stream().filter(line -> !line.isBlank()).toList();
            if (lines.isEmpty()) {
                continue;
            }
            int border = Math.max(2, laid.size() / 4);
            int lineHeight = laid.ascent() + laid.descent();
            int top = canvas.height() - margin - lines.size() * lineHeight;
            double widest = lines.stream().mapToDouble(line -> TextLayout.width(line, font.deriveFont(
                    (float) laid.size()))).max().orElse(0);
            int boxWidth = Math.min(canvas.width(), (int) Math.ceil(widest * TextLayout.SAFETY) + 2 * border);
            String enable = ":enable=" + value("gte(t," + number(cue.start()) + ")*lt(t," + number(cue.end()) + ")");
            picture.append(",drawbox=x=").append((canvas.width() - boxWidth) / 2).append(":y=").append(top - border)
                    .append(":w=").append(boxWidth).append(":h=").append(lines.size() * lineHeight + 2 * border)
                    .append(":color=black@0.6:t=fill").append(enable);
            for (int j = 0; j < lines.size(); j++) {
                String file = "caption-" + i + "-" + j + ".txt";
                SegmentGraph.write(workDir.resolve(file), lines.get(j));
                int baseline = top + laid.ascent() + j * lineHeight;
                picture.append(",drawtext=fontfile=")
                        .append(value(fonts.file(TextFont.DEFAULT.fontName()).toString()))
                        .append(":textfile=").append(value(file))
                        .append(":expansion=none:fontsize=").append(laid.size())
                        .append(":fontcolor=white")
                        .append(":x=").append(value("(w-text_w)/2"))
                        .append(":y=").append(value(baseline + "-ascent"))
                        .append(enable);
            }
        }
    }

    /** Opacity over time for fades of a text; null when it has none. */
    private static String alpha(ResolvedVideo.Layer layer) {
        List<String> ramps = new ArrayList<>();
        if (layer.fadeIn() > 0) {
            ramps.add("(t-" + number(layer.start()) + ")/" + number(layer.fadeIn()));
        }
        if (layer.fadeOut() > 0) {
            ramps.add("(" + number(layer.end()) + "-t)/" + number(layer.fadeOut()));
        }
        if (ramps.isEmpty()) {
            return null;
        }
        String ramp = ramps.size() == 1 ? ramps.get(0) : "min(" + ramps.get(0) + "," + ramps.get(1) + ")";
        return "max(0,min(1," + ramp + "))";
    }
}
