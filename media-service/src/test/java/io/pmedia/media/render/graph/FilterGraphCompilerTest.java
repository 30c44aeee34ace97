package io.pmedia.media.render.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.graphics.FrameRenderer;
import io.pmedia.graphics.TextLayer;
import io.pmedia.graphics.Timing;
import io.pmedia.graphics.text.FontChain;
import io.pmedia.media.render.ffmpeg.FfmpegCommand;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.Templates;

/** The shape of the generated command, without running it. */
class FilterGraphCompilerTest {

    static final String TEMPLATE = """
            {"use-case-id": "shape", "name": "Shape",
             "canvas": {"width": 640, "height": 360, "fps": 25, "background": "#000000"},
             "fields": [{"name": "name", "required": true}],
             "assets": {"images": [{}]},
             "segments": [
               {"id": "a", "duration": 2, "fade-in": 0.5, "layers": [
                 {"id": "photo", "type": "image", "asset": 0, "x": 10, "y": 10, "width": 100, "height": 80},
                 {"id": "hi", "type": "text", "text": "Hi {{name}}", "start": 0.5, "fade-in": 0.5, "max-lines": 3}]},
               {"id": "b", "duration": 1, "background": {"image": 0}, "layers": [
                 {"id": "photo", "type": "image", "asset": 0, "x": "center", "y": "center", "width": 64,
                  "height": 64, "fit": "cover", "fade": 0.2}]}
             ]}""";

    static final String PHOTO = "https://cdn.example.com/p.png";

    final FilterGraphCompiler compiler = new FilterGraphCompiler("/usr/bin/ffmpeg",
            new Fonts(Fonts.DEFAULT_DIRECTORY));

    static ResolvedVideo video(String name) {
        return Templates.resolve(Templates.parse(TEMPLATE), """
                {"personalization_fields": {"name": %s}, "global_assets": {"images": ["%s"]}}"""
                .formatted(Templates.JSON.valueToTree(name), PHOTO));
    }

    static String graph(FfmpegCommand command) {
        return command.arguments().get(command.arguments().indexOf("-filter_complex") + 1);
    }

    static Map<String, Path> photo(Path dir) throws IOException {
        return Map.of(PHOTO, Files.writeString(dir.resolve("fetched.data"), "png"));
    }

    @Test
    void oneInvocationWritesTheMp4AndTheThumbnail(@TempDir Path work) throws IOException {
        FfmpegCommand command = compiler.compile(video("Ada"), photo(work), work);
        List<String> args = command.arguments();

        assertThat(args.get(0)).isEqualTo("/usr/bin/ffmpeg");
        assertThat(Collections.frequency(args, "-filter_complex")).isEqualTo(1);
        assertThat(String.join(" ", args)).contains(
                "-map [vout] -map [aout] -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p",
                "-c:a aac", "-movflags +faststart", "-t 3 video.mp4",
                "-map [thumb] -frames:v 1 -c:v mjpeg -q:v 3 -f image2 -update 1 thumbnail.jpg");
        assertThat(command.video()).isEqualTo(work.resolve("video.mp4"));
        assertThat(command.thumbnail()).isEqualTo(work.resolve("thumbnail.jpg"));
        assertThat(command.workDir()).isEqualTo(work);
        assertThat(command.durationSeconds()).isEqualTo(3.0);
    }

    @Test
    void theGraphConcatenatesTheSegmentsAndCutsTheThumbnailFromTheMiddleOfTheFirst(@TempDir Path work)
            throws IOException {
        String graph = graph(compiler.compile(video("Ada"), photo(work), work));

        assertThat(graph).contains("concat=n=2:v=1:a=0,format=yuv420p,split=2[vout][vthumb]",
                "[vthumb]trim=start_frame=25:end_frame=26[thumb]",
                "anullsrc=r=48000:cl=stereo,atrim=duration=3[aout]",
                "color=c=0x000000:s=640x360:r=25:d=2,format=yuv420p[s0_0]",
                "fade=t=in:st=0:d=0.5");
    }

    @Test
    void aStreamedRenderCutsItsThumbnailFromTheMp4AfterwardsSoTheFirstSegmentIsNotHeldBack(@TempDir Path work)
            throws IOException {
        ResolvedVideo video = video("Ada");
        FfmpegCommand command = compiler.compile(video, photo(work), List.of(), List.of(), true, work);

        assertThat(graph(command)).contains("concat=n=2:v=1:a=0,format=yuv420p[vout]")
                .doesNotContain("split=2", "[thumb]");
        assertThat(String.join(" ", command.arguments())).doesNotContain("thumbnail.jpg");
        assertThat(command.thumbnail()).isEqualTo(work.resolve("thumbnail.jpg"));
        assertThat(RenderCommands.thumbnailFromVideo(video, true)).isTrue();
        assertThat(RenderCommands.thumbnailFromVideo(video, false)).isFalse();
        FfmpegCommand thumbnail = compiler.compileThumbnail(work.resolve("video.mp4"),
                RenderCommands.thumbnailFrame(video) / 25.0, null, work);
        assertThat(String.join(" ", thumbnail.arguments())).contains("-ss 1 ", "-i file:" + work.resolve("video.mp4"),
                "-frames:v 1 -c:v mjpeg -q:v 3 -f image2 -update 1 thumbnail.jpg");
    }

    @Test
    void aStreamedMainOutputThatDoesNotShowTheCanvasFrameHasTheThumbnailSplitOffThePicture(@TempDir Path work)
            throws IOException {
        ResolvedVideo video = Templates.resolve(Templates.parse(TEMPLATE.replace("\"segments\"",
                "\"outputs\": [{\"name\": \"small\", \"format\": \"mp4\", \"height\": 180}], \"segments\"")),
                """
                        {"personalization_fields": {"name": "Ada"}, "global_assets": {"images": ["%s"]}}"""
                        .formatted(PHOTO));
        FfmpegCommand command = compiler.compile(video, photo(work), List.of(), List.of(), true, work);

        assertThat(RenderCommands.thumbnailFromVideo(video, true)).isFalse();
        assertThat(graph(command)).contains("split=2[", "[vthumb]trim=start_frame=25:end_frame=26[thumb]");
        assertThat(String.join(" ", command.arguments()))
                .endsWith("-map [thumb] -frames:v 1 -c:v mjpeg -q:v 3 -f image2 -update 1 thumbnail.jpg");
    }

    @Test
    void anAssetIsOpenedOnceWithOnlyTheFileProtocolAndImageDemuxersAndSplitForEachUse(@TempDir Path work)
            throws IOException {
        FfmpegCommand command = compiler.compile(video("Ada"), photo(work), work);
        List<String> args = command.arguments();

        // the photo, and the graphics engine's frames on the standard input
        assertThat(Collections.frequency(args, "-i")).isEqualTo(2);
        assertThat(args.get(args.indexOf("-i") + 1)).isEqualTo("file:asset-0");
        assertThat(String.join(" ", args)).contains("-i pipe:0").contains("-protocol_whitelist file -format_whitelist "
                + InputOptions.IMAGE_FORMATS + " -max_pixels 40000000 -i file:asset-0");
        assertThat(Files.readSymbolicLink(work.resolve("asset-0"))).isEqualTo(work.resolve("fetched.data"));
        assertThat(graph(command)).contains("[0:v]split=3[in0_0][in0_1][in0_2]");
        assertThat(command.redactions()).containsEntry("file:asset-0", "asset " + PHOTO);
    }

    @Test
    void aVideoShownTwiceIsReadOncePerUseSoNoFramesQueueForALaterSegment(@TempDir Path work) throws IOException {
        String clip = "https://cdn.example.com/c.mp4";
        ResolvedVideo video = Templates.resolve(Templates.parse("""
                {"use-case-id": "twice", "name": "Twice", "canvas": {"width": 320, "height": 180, "fps": 25},
                 "assets": {"videos": [{}]},
                 "segments": [{"id": "a", "duration": 1, "background": {"video": 0}},
                              {"id": "b", "duration": 1, "layers": [
                                {"type": "video", "asset": 0, "width": 100, "height": 100}]}]}"""),
                "{\"global_assets\": {\"videos\": [\"" + clip + "\"]}}");

        FfmpegCommand command = compiler.compile(video,
                Map.of(clip, Files.writeString(work.resolve("c.data"), "mp4")), work);

        assertThat(String.join(" ", command.arguments())).contains(
                "-format_whitelist " + InputOptions.VIDEO_FORMATS + " -max_pixels 40000000 -an -sn -dn "
                        + "-i file:asset-0 -protocol_whitelist file -format_whitelist "
                        + InputOptions.VIDEO_FORMATS + " -max_pixels 40000000 -an -sn -dn -i file:asset-0");
        assertThat(graph(command)).doesNotContain("split=2[in").contains("[0:v]trim=duration=1",
                "[1:v]trim=duration=1");
    }

    @Test
    void theEnginesFramesAreReadOnAThreadOfTheirOwnAFewFramesAhead(@TempDir Path work) throws IOException {
        // with a picture FFmpeg has two inputs already, and reads each on a thread of its own
        String withPhoto = String.join(" ", compiler.compile(video("Ada"), photo(work), work).arguments());
        assertThat(withPhoto).contains("-thread_queue_size 2 -f rawvideo").doesNotContain("lavfi");
        // the engine's frames alone: an empty second input, which no output maps, makes FFmpeg read them on one
        ResolvedVideo drawn = Templates.resolve(Templates.parse("""
                {"use-case-id": "drawn", "name": "Drawn", "canvas": {"width": 320, "height": 180, "fps": 25},
                 "segments": [{"id": "a", "duration": 1, "layers": [{"type": "text", "text": "Hi"}]}]}"""),
                "{}");
        FfmpegCommand alone = compiler.compile(drawn, Map.of(), work);
        assertThat(String.join(" ", alone.arguments())).contains("-thread_queue_size 2 -f rawvideo",
                "-i pipe:0 -f lavfi -t 0.04 -i anullsrc -filter_complex");
        assertThat(Collections.frequency(alone.arguments(), "-i")).isEqualTo(2);
        assertThat(graph(alone)).contains("[0:v]").doesNotContain("[1:");
    }

    @Test
    void vendorTextReachesOnlyTheGraphicsEngineNeverTheCommand(@TempDir Path work) throws IOException {
        String name = "O'Brien: 100% [x];drawbox=c=red, %{pts} \\";

        FfmpegCommand command = compiler.compile(video(name), photo(work), work);

        assertThat(command.arguments()).noneMatch(argument -> argument.contains("O'Brien"));
        assertThat(text(command).text()).isEqualTo("Hi " + name);
        List<String> args = command.arguments();
        int pipe = args.indexOf("pipe:0");
        assertThat(args.subList(pipe - 9, pipe + 1)).containsExactly("-f", "rawvideo", "-pix_fmt", "rgba", "-s",
                "556x320", "-framerate", "25", "-i", "pipe:0");
        // The text shows from 0.5 s (frame 13 of 50), fading in to 1 s (frame 25), then holds: the pipe carries
        // frame 0 (nothing yet), frames 13 to 25 and the last frame, 15 frames timed back to where they show; each
        // the text's extent alone (its box and a reach around it for shadow and motion: the frame is that size, not
        // the canvas's 640x360), overlaid there.
        assertThat(graph(command)).contains("[1:v]trim=start_frame=0:end_frame=15,"
                + "setpts=round((if(lt(N\\,1)\\,N\\,if(lt(N\\,14)\\,N+12\\,N+35)))/(25*TB)),"
                + "crop=556:320:0:0[g0_0]", "[s0_1][g0_0]overlay=x=42:y=20:eval=init[s0_2]");
        assertThat(command.graphics().frames()).hasSize(15).startsWith(0, 13, 14).endsWith(24, 25, 49);
    }

    @Test
    void theGraphNamesNoPathOfTheWorkDirectoryNorOfTheFonts(@TempDir Path parent) throws IOException {
        Path work = Files.createDirectories(parent.resolve("w:o,r[k];'d"));
        Path fontDir = Files.createDirectories(parent.resolve("f'o:n,t[s];"));
        for (var font : io.pmedia.media.template.TextFont.values()) {
            Files.createSymbolicLink(fontDir.resolve(font.fileName()),
                    Fonts.DEFAULT_DIRECTORY.resolve(font.fileName()));
        }
        FilterGraphCompiler hostile = new FilterGraphCompiler("ffmpeg", new Fonts(fontDir));

        FfmpegCommand command = hostile.compile(video("Ada"), photo(work), work);

        assertThat(String.join(" ", command.arguments())).doesNotContain(work.toString())
                .doesNotContain(fontDir.toString());
        assertThat(command.graphics().fonts()).containsEntry("sans", fontDir.resolve("DejaVuSans.ttf"));
    }

    @Test
    void aLongTextIsLaidOutByTheEngineInItsBox(@TempDir Path work) throws IOException {
        String name = "Bartholomew Alexander Fitzgerald of Saxe-Coburg and Gotha";

        FfmpegCommand command = compiler.compile(video(name), photo(work), work);

        TextLayer text = text(command);
        assertThat(text.x()).isEqualTo(320);
        assertThat(text.align()).isEqualTo(TextLayer.Align.CENTER);
        assertThat(text.maxWidth()).isEqualTo(640 - 2 * Math.round(640 * 0.06));
        try (FrameRenderer renderer = new FrameRenderer(command.graphics().scene(),
                FontChain.of(command.graphics().fonts()))) {
            assertThat(renderer.text(0).lines()).isBetween(2, 3);
            assertThat(renderer.text(0).unresolvedGlyphs()).isZero();
        }
    }

    @Test
    void timingFadesAndBoxesAreInTheGraph(@TempDir Path work) throws IOException {
        FfmpegCommand command = compiler.compile(video("Ada"), photo(work), work);
        String graph = graph(command);

        assertThat(text(command).timing()).isEqualTo(new Timing(0.5, 2, 0.5, 0));
        assertThat(graph).contains("overlay=x=10+(100-w)/2:y=10+(80-h)/2:eval=init:eof_action=repeat[s0_1]",
                "scale=64:64:force_original_aspect_ratio=increase,crop=64:64,setsar=1,loop=loop=-1:size=1",
                "fade=t=in:st=0:d=0.2:alpha=1", "fade=t=out:st=0.8:d=0.2:alpha=1",
                "[b1][bi1]overlay=eval=init,format=yuv420p,loop=loop=-1:size=1,trim=end_frame=25");
    }

    private static TextLayer text(FfmpegCommand command) {
        assertThat(command.graphics()).isNotNull();
        return (TextLayer) command.graphics().scene().layers().get(0);
    }

    @Test
    void compilingIsDeterministic(@TempDir Path one, @TempDir Path two) throws IOException {
        assertThat(compiler.compile(video("Ada"), photo(one), one).arguments())
                .isEqualTo(compiler.compile(video("Ada"), photo(two), two).arguments());
    }

    @Test
    void everyAssetMustHaveAFile(@TempDir Path work) {
        assertThatThrownBy(() -> compiler.compile(video("Ada"), Map.of(), work))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(PHOTO);
    }

    @Test
    void theDisplayFormQuotesForAShell(@TempDir Path work) {
        FfmpegCommand command = new FfmpegCommand(List.of("ffmpeg", "-i", "file:asset-0", "[a];b", "it's"), work,
                work.resolve("v.mp4"), work.resolve("t.jpg"), 1, Map.of());

        assertThat(command.display()).isEqualTo("ffmpeg -i file:asset-0 '[a];b' 'it'\\''s'");
    }
}
