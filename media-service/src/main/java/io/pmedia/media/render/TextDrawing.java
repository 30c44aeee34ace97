package io.pmedia.media.render;

import static io.pmedia.media.render.FilterGraph.number;
import static io.pmedia.media.render.FilterGraph.value;
import static io.pmedia.media.render.FilterGraphCompiler.MARGIN_X;
import static io.pmedia.media.render.FilterGraphCompiler.MARGIN_Y;

import java.awt.Font;
import java.nio.file.Path;
import java.util.List;

import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TextFont;

/**
 * Burned-in captions in the filter graph, laid out by {@link TextLayout} and drawn with one {@code drawtext} per
 * line (a template's text layers are drawn by the graphics engine: {@link EngineText}). The text itself is written to a file in the work directory and read with
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
}
