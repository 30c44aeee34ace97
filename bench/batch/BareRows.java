import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.json.StrictJson;
import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.ffmpeg.FfmpegRunner;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.render.engine.RenderEngine;
import io.pmedia.media.template.MediaData;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolver;

/**
 * The bare side of a bench/batch part whose rows differ (tour): for each of the first COUNT rows of a batch input CSV,
 * the FFmpeg command the engine generates for a full render of that row (its fields as personalization fields; the
 * user-id and image-url columns left out), in OUT/row-N with command.sh to run it, as bench/render's
 * PMEDIA_BENCH_KEEP keeps one. The template's asset URLs are read from the local files given as URL=FILE. Run with the
 * running stack's own media-service build on the classpath (no Maven build needed):
 *
 * <pre>
 *   java -cp '.pmedia/app/media/app/*:.pmedia/app/media/lib/main/*:.pmedia/app/media/lib/boot/*' \
 *       bench/batch/BareRows.java [--frames=N] TEMPLATE_JSON INPUT_CSV COUNT OUT [URL=FILE...]
 * </pre>
 *
 * A command whose render pipes frames of the graphics engine (texts, shapes, lottie layers) to FFmpeg reads them from
 * {@code frames.rgba} beside it. Those files are large (3.7 MB a 720p frame, 3.3 GB for a 30 s row), so they are not
 * written with the commands: {@code --frames=N} writes row N's alone (drawn by the engine, as the render draws them),
 * for the caller to time its command and delete them before the next row's.
 *
 * The CSV is the plain one bench/batch/run.sh writes (a header, no quoted values).
 */
public class BareRows {

    public static void main(String[] args) throws Exception {
        int framesOf = 0;
        if (args.length > 0 && args[0].startsWith("--frames=")) {
            framesOf = Integer.parseInt(args[0].substring("--frames=".length()));
            args = Arrays.copyOfRange(args, 1, args.length);
        }
        ObjectMapper json = StrictJson.apply(new ObjectMapper());
        TemplateDefinition template = json.readValue(Files.readString(Path.of(args[0])), TemplateDefinition.class);
        List<String> lines = Files.readAllLines(Path.of(args[1]));
        int count = Math.min(Integer.parseInt(args[2]), lines.size() - 1);
        Path out = Files.createDirectories(Path.of(args[3]).toAbsolutePath());
        Map<String, Path> assets = new HashMap<>();
        for (int i = 4; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            assets.put(args[i].substring(0, eq), Path.of(args[i].substring(eq + 1)).toAbsolutePath());
        }
        RenderEngine engine = new RenderEngine(FfmpegRunner.locate(System.getenv("PMEDIA_FFMPEG")),
                Fonts.DEFAULT_DIRECTORY);
        String[] header = lines.get(0).split(",", -1);
        for (int row = 1; row <= count; row++) {
            if (framesOf > 0 && row != framesOf) {
                continue;
            }
            String[] values = lines.get(row).split(",", -1);
            Map<String, String> fields = new LinkedHashMap<>();
            for (int c = 0; c < header.length; c++) {
                if (!header[c].equals("user-id") && !header[c].equals("image-url")) {
                    fields.put(header[c], values[c]);
                }
            }
            MediaData data = json.convertValue(Map.of("personalization_fields", fields), MediaData.class);
            Path dir = Files.createDirectories(out.resolve("row-" + row));
            FfmpegCommand command = engine.compile(TemplateResolver.resolve(template,
                    RenderInputs.fromCurrentForm(data)), assets, dir);
            if (framesOf > 0) {
                if (command.graphics() != null) {
                    try (OutputStream frames = new BufferedOutputStream(
                            Files.newOutputStream(dir.resolve("frames.rgba")), 1 << 20)) {
                        command.graphics().write(frames);
                    }
                }
                return;
            }
            Files.writeString(dir.resolve("command.sh"), "cd \"$(dirname \"$0\")\" && " + command.display()
                    + (command.graphics() == null ? "" : " < frames.rgba") + "\n");
        }
        System.out.println(count);
    }
}
