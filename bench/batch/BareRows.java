import java.nio.file.Files;
import java.nio.file.Path;
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
 *   java -cp '.pmedia/app/media/app/*:.pmedia/app/media/lib/main/*' bench/batch/BareRows.java \
 *       TEMPLATE_JSON INPUT_CSV COUNT OUT [URL=FILE...]
 * </pre>
 *
 * The CSV is the plain one bench/batch/run.sh writes (a header, no quoted values).
 */
public class BareRows {

    public static void main(String[] args) throws Exception {
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
            Files.writeString(dir.resolve("command.sh"), "cd \"$(dirname \"$0\")\" && " + command.display() + "\n");
        }
        System.out.println(count);
    }
}
