package io.pmedia.media.template;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TemplateValidatorTest {

    static final String MINIMAL = """
            {"use-case-id": "minimal", "name": "Minimal", "canvas": {"width": %d, "height": %d, "fps": 30},
             "segments": [{"id": "only", "duration": 1, "layers": [{"type": "text", "text": "Hi"}]}]}""";

    @ParameterizedTest
    @ValueSource(strings = {"greeting", "vertical-short", "classic-card", "showcase", "brand-story", "name-card",
            "product-launch"})
    void theSampleTemplatesAreValidWithoutUnknownKeys(String name) throws IOException {
        TemplateValidator.Checked checked = TemplateValidator.check(
                Templates.tree(Files.readString(Templates.sampleFile(name))), Templates.JSON);

        assertThat(checked.problems()).isEmpty();
        assertThat(checked.definition()).isEqualTo(Templates.sample(name));
    }

    @Test
    void motionAndShapesAreValidatedWithTheirPaths() {
        TemplateDefinition broken = Templates.parse("""
                {"use-case-id": "motion", "name": "Motion", "canvas": {"width": 640, "height": 360, "fps": 25},
                 "segments": [{"id": "a", "duration": 3, "layers": [
                   {"type": "text", "text": "Hi", "animate": {"in": {"type": "wobble", "by": "letter"},
                     "out": {"type": "fade"}, "sideways": {}},
                    "keyframes": [{"time": 0, "x": 0}, {"time": 4, "x": 100, "spin": 1}]},
                   {"type": "shape", "shape": "path", "path": "M 0 0 L 10 <x>", "width": 100, "height": 50,
                    "fill": {"type": "linear", "colors": ["#ff0000"]}, "stroke": {"color": "red"}},
                   {"type": "shape", "shape": "hexagon", "width": 10, "height": 10, "fill": "#00ff00",
                    "shadow": {"blur": -1}, "text": "no"},
                   {"type": "image", "asset": 0, "width": 10, "height": 10, "keyframes": [{"time": 0}],
                    "fill": "#ffffff"}
                 ]}],
                 "assets": {"images": [{}]}}
                """);

        assertThat(TemplateValidator.validate(broken)).containsExactlyInAnyOrder(
                "segments[0].layers[0].animate.sideways: unknown key (in, out)",
                "segments[0].layers[0].animate.in.type: unknown value 'wobble': one of fade, slide, scale, pop,"
                        + " typewriter, blur",
                "segments[0].layers[0].keyframes[1].spin: unknown key (anchor, easing, opacity, rotation, scale,"
                        + " time, x, y)",
                "segments[0].layers[1].path: not SVG path data (it starts with M and holds only path commands and"
                        + " numbers)",
                "segments[0].layers[1].fill.colors: 2 to 16 colours",
                "segments[0].layers[1].stroke.color: a colour \"#rrggbb\" or \"#rrggbbaa\"",
                "segments[0].layers[2].shape: unknown shape 'hexagon': one of rect, rounded-rect, ellipse, line, path",
                "segments[0].layers[2].shadow.blur: a number from 0 to 200",
                "segments[0].layers[2].text: a shape layer does not take it",
                "segments[0].layers[3].fill: only shape layers take it");
    }

    @Test
    void anUnknownEasingAndAKeyframeOutsideItsLayerAreNamedByPath() {
        TemplateDefinition broken = Templates.parse("""
                {"use-case-id": "motion", "name": "Motion", "canvas": {"width": 640, "height": 360, "fps": 25},
                 "segments": [{"id": "a", "duration": 3, "layers": [
                   {"type": "text", "text": "Hi", "end": 2, "animate": {"in": {"type": "fade", "easing": "bounce"}}},
                   {"type": "text", "text": "Hi", "keyframes": [{"time": 0, "x": 0}, {"time": 4, "x": 100}]}
                 ]}]}
                """);

        List<String> problems = TemplateValidator.validate(broken);

        assertThat(problems).hasSize(2);
        assertThat(problems.get(0)).startsWith("segments[0].layers[0].animate.in.easing: unknown easing 'bounce'");
        assertThat(problems.get(1)).isEqualTo("segments[0].layers[1].keyframes[1].time: keyframe at 4.0 s is"
                + " outside its layer (0 to 3.0 s)");
    }

    @Test
    void keyframesOnPicturesAreValidatedAsOnEveryLayerAndNotWithMotion() {
        TemplateDefinition broken = Templates.parse("""
                {"use-case-id": "motion", "name": "Motion", "canvas": {"width": 640, "height": 360, "fps": 25},
                 "assets": {"images": [{}], "icons": [{}], "videos": [{}]},
                 "segments": [{"id": "a", "duration": 3, "layers": [
                   {"type": "image", "asset": 0, "width": 100, "height": 100, "start": 1,
                    "keyframes": [{"time": 0, "x": 0}, {"time": 2.5, "x": 100}]},
                   {"type": "icon", "asset": 0, "width": 40, "height": 40,
                    "keyframes": [{"time": 0, "opacity": 0, "easing": "bounce"}, {"time": 1, "opacity": 1}]},
                   {"type": "image", "asset": 0, "width": 100, "height": 100, "motion": "zoom-in",
                    "keyframes": [{"time": 0, "scale": 1}]},
                   {"type": "video", "asset": 0, "width": 100, "height": 100, "keyframes": [{"time": 3.5, "x": 0}]},
                   {"type": "image", "asset": 0, "width": 100, "height": 100, "keyframes": [{"time": 0, "z": 1}]},
                   {"type": "image", "asset": 0, "width": 100, "height": 100, "keyframes": []}
                 ]}]}
                """);

        List<String> problems = TemplateValidator.validate(broken);

        assertThat(problems).hasSize(6);
        assertThat(problems).contains(
                "segments[0].layers[0].keyframes[1].time: keyframe at 2.5 s is outside its layer (0 to 2.0 s)",
                "segments[0].layers[2]: motion and keyframes together: a picture moves by one or the other",
                "segments[0].layers[3].keyframes[0].time: keyframe at 3.5 s is outside its layer (0 to 3.0 s)",
                "segments[0].layers[4].keyframes[0].z: unknown key (anchor, easing, opacity, rotation, scale, time, x,"
                        + " y)",
                "segments[0].layers[5].keyframes: a list of 1 to 50 keyframes");
        assertThat(problems).anyMatch(p -> p.startsWith("segments[0].layers[1].keyframes[0].easing: unknown easing"
                + " 'bounce'"));
    }

    @Test
    void keyframesOnVideosAreValidatedAsOnEveryLayerAndMotionStaysRefused() {
        TemplateDefinition videos = Templates.parse("""
                {"use-case-id": "motion", "name": "Motion", "canvas": {"width": 640, "height": 360, "fps": 25},
                 "assets": {"videos": [{}]},
                 "segments": [{"id": "a", "duration": 3, "layers": [
                   {"type": "video", "asset": 0, "width": 100, "height": 100, "start": 1,
                    "keyframes": [{"time": 0, "x": 0, "opacity": 0}, {"time": 2, "x": 100, "opacity": 1,
                                   "rotation": 90, "scale": 2, "anchor": [0, 1], "easing": "ease-in-out"}]},
                   {"type": "video", "asset": 0, "width": 100, "height": 100, "start": 1,
                    "keyframes": [{"time": 0, "x": 0}, {"time": 2.5, "x": 100}]},
                   {"type": "video", "asset": 0, "width": 100, "height": 100,
                    "keyframes": [{"time": 0, "opacity": 0, "easing": "bounce"}, {"time": 1, "opacity": 1}]},
                   {"type": "video", "asset": 0, "width": 100, "height": 100, "motion": "zoom-in"},
                   {"type": "video", "asset": 0, "width": 100, "height": 100, "motion": "zoom-in",
                    "keyframes": [{"time": 0, "scale": 1}]}
                 ]}]}
                """);

        List<String> problems = TemplateValidator.validate(videos);

        assertThat(problems).as("the first video is valid").noneMatch(p -> p.startsWith("segments[0].layers[0]"));
        assertThat(problems).contains(
                "segments[0].layers[1].keyframes[1].time: keyframe at 2.5 s is outside its layer (0 to 2.0 s)",
                "segments[0].layers[3].motion: only image and icon layers move",
                "segments[0].layers[4].motion: only image and icon layers move");
        assertThat(problems).anyMatch(p -> p.startsWith("segments[0].layers[2].keyframes[0].easing: unknown easing"
                + " 'bounce'"));
        assertThat(problems).hasSize(4);
    }

    @Test
    void aKeyframedPictureAndVideoAsDocumentedAreValid() {
        TemplateDefinition picture = Templates.parse("""
                {"use-case-id": "motion", "name": "Motion", "canvas": {"width": 1280, "height": 720, "fps": 25},
                 "assets": {"images": [{"name": "photo"}], "videos": [{"name": "clip"}]},
                 "segments": [{"id": "a", "duration": 4, "layers": [
                   {"type": "image", "asset": 0, "x": 880, "y": 120, "width": 320, "height": 320, "fit": "cover",
                    "fade-out": 0.5,
                    "keyframes": [{"time": 0, "x": 400, "opacity": 0, "rotation": -8},
                                  {"time": 0.8, "x": 0, "opacity": 1, "rotation": 0, "easing": "ease-out"},
                                  {"time": 4, "scale": 1.15, "anchor": [0.5, 0.5]}]},
                   {"type": "video", "asset": 0, "x": 40, "y": 360, "width": 480, "height": 270, "fit": "cover",
                    "end": 4,
                    "keyframes": [{"time": 0, "y": 400, "rotation": 6, "anchor": [0, 1]},
                                  {"time": 0.6, "y": 0, "rotation": 0, "easing": "cubic-bezier(0.2, 0.8, 0.2, 1)"},
                                  {"time": 3.5, "opacity": 1}, {"time": 4, "opacity": 0, "scale": 0.9}]}
                 ]}]}
                """);

        assertThat(TemplateValidator.validate(picture)).isEmpty();
    }

    @Test
    void aDocumentedMotionTemplateIsValid() {
        TemplateDefinition motion = Templates.parse("""
                {"use-case-id": "motion", "name": "Motion", "canvas": {"width": 640, "height": 360, "fps": 25},
                 "fields": [{"name": "name", "required": true}],
                 "segments": [{"id": "a", "duration": 3, "layers": [
                   {"type": "shape", "shape": "rounded-rect", "x": 40, "y": 200, "width": 560, "height": 120,
                    "radius": 24, "fill": {"type": "linear", "from": [0, 0], "to": [1, 1],
                    "colors": ["#1d3557", "#457b9d"]}, "stroke": {"color": "#ffffff", "width": 2},
                    "shadow": {"color": "#00000080", "x": 0, "y": 8, "blur": 16},
                    "keyframes": [{"time": 0, "y": 60, "opacity": 0}, {"time": 0.6, "y": 0, "opacity": 1,
                      "easing": "cubic-bezier(0.2, 0.8, 0.2, 1)"}]},
                   {"type": "shape", "shape": "path", "path": "M0 0 L40 0 L20 30 Z", "width": 40, "height": 30,
                    "fill": {"type": "radial", "colors": ["#ffd166", "#ef476f"]}},
                   {"type": "text", "text": "Hi {{name}}", "y": 220,
                    "animate": {"in": {"type": "slide", "by": "letter", "from": "down", "distance": 40,
                      "stagger": 0.04, "duration": 0.5, "easing": "ease-out"}, "out": {"type": "fade"}},
                    "keyframes": [{"time": 0, "scale": 1, "anchor": [0.5, 0.5]}, {"time": 3, "scale": 1.1}]}
                 ]}]}
                """);

        assertThat(TemplateValidator.validate(motion)).isEmpty();
    }

    @Test
    void everyProblemIsReportedWithItsPath() {
        TemplateDefinition broken = Templates
                .parse("""
                        {"use-case-id": "Bad Id", "name": " ",
                         "canvas": {"width": 4000, "height": 721, "fps": 120, "background": "blue"},
                         "fields": [{"name": "name", "required": true, "default": "you"}, {"name": "name"}, {"name": "a b"}],
                         "assets": {"images": [{"default": "file:///etc/passwd"}], "videos": [null]},
                         "audio": {"type": "track"},
                         "segments": [
                           {"id": "a", "duration": 2, "fade-in": 1.5, "fade-out": 1, "layers": [
                             {"type": "text", "text": "Hi {{nobody}}", "font": "comic", "color": "red", "x": "middle", "size": 2},
                             {"type": "image", "asset": 3, "width": 10, "font": "sans"},
                             {"id": "late", "type": "text", "text": "late", "start": 1, "end": 5},
                             {"id": "late", "type": "text", "text": "again", "fade": 2, "width": 3},
                             {"type": "sparkles"}
                           ],
                           "variants": [{"cohorts": [], "layers": [{"type": "video", "width": 10, "height": 10}]}]},
                           {"id": "a", "duration": 500, "background": {"color": "#000000", "image": 0, "video": 0}},
                           {"id": "c", "duration": 1, "background": {}}
                         ]}
                        """);

        assertThat(TemplateValidator.validate(broken)).containsExactlyInAnyOrder(
                "use-case-id: required; lower-case letters, digits, '.', '_' and '-', at most 64, "
                        + "starting with a letter or digit",
                "name: required, at most 200 characters",
                "canvas.width: an even number of pixels from 16 to 1920",
                "canvas.height: an even number of pixels from 16 to 1920",
                "canvas.fps: a whole number from 1 to 60",
                "canvas.background: a colour #rrggbb or #rrggbbaa, like #1d3557",
                "fields[0].default: a required field takes no default",
                "fields[1].name: 'name' is declared twice",
                "fields[2].name: required; letters, digits, '_' and '-', at most 64",
                "assets.images[0].default: an http(s) URL",
                "assets.videos[0]: must be an object (it may be empty: {})",
                "audio.url: an http(s) URL is required for a track",
                "segments: together at most 120 s (they make 503 s)",
                "segments[0]: fade-in and fade-out together are longer than the segment's duration",
                "segments[0].layers[0].text: {{nobody}} is not a declared field",
                "segments[0].layers[0].font: unknown font 'comic' (fonts: sans, sans-bold, sans-italic, "
                        + "sans-bold-italic, sans-light, sans-condensed, sans-condensed-bold, serif, serif-bold, "
                        + "serif-italic, mono, mono-bold)",
                "segments[0].layers[0].size: from 6 to 400 pixels",
                "segments[0].layers[0].color: a colour #rrggbb or #rrggbbaa, like #1d3557",
                "segments[0].layers[0].x: whole pixels (at most 4000 either way) or one of center, left, right",
                "segments[0].layers[1].asset: there is no slot assets.images[3]",
                "segments[0].layers[1].height: required, from 2 to 4000 pixels",
                "segments[0].layers[1].font: only text layers take it",
                "segments[0].layers[2]: start and end (seconds) must satisfy 0 <= start < end <= 2 "
                        + "(the segment's duration)",
                "segments[0].layers[3].id: 'late' is used twice in this segment",
                "segments[0].layers[3]: fade-in and fade-out together are longer than the layer's time on screen",
                "segments[0].layers[3].width: only image, icon and video layers take it",
                "segments[0].layers[4].type: one of text, image, icon, video, speech, shape, lottie",
                "segments[0].variants[0].cohorts: at least one cohort is required",
                "segments[0].variants[0].layers[0].asset: the index of a slot of assets.videos is required",
                "segments[1].id: 'a' is used twice",
                "segments[1].duration: seconds, from 0.1 to 120",
                "segments[1].background: an image or a video, not both",
                "segments[2].background: a color, a gradient, an image or a video");
    }

    @ParameterizedTest
    @CsvSource({"1920,1080,true", "1080,1920,true", "1080,1080,true", "320,180,true", "1920,1200,false",
            "1200,1200,false", "2560,1440,false", "16,16,true", "14,16,false", "321,180,false"})
    void theCanvasIsAtMost1920x1080OrPortrait1080x1920(int width, int height, boolean valid) {
        assertThat(TemplateValidator.validate(Templates.parse(MINIMAL.formatted(width, height))).isEmpty())
                .isEqualTo(valid);
    }

    @Test
    void segmentAndLayerCountsAreLimited() {
        StringBuilder segments = new StringBuilder();
        for (int i = 0; i < 31; i++) {
            segments.append(i == 0 ? "" : ",").append("{\"id\": \"s").append(i).append("\", \"duration\": 0.5")
                    .append(i == 0
                            ? ", \"layers\": [" + "{\"type\": \"text\", \"text\": \"x\"},".repeat(20)
                                    + "{\"type\": \"text\", \"text\": \"x\"}]"
                            : "")
                    .append('}');
        }
        TemplateDefinition template = Templates.parse("""
                {"use-case-id": "many", "name": "Many", "canvas": {"width": 320, "height": 180, "fps": 25},
                 "segments": [%s]}""".formatted(segments));

        assertThat(TemplateValidator.validate(template)).containsExactly("segments: at most 30",
                "segments[0].layers: at most 20 layers");
    }

    @Test
    void unknownKeysAndWrongTypesAreReportedWithTheirPaths() {
        TemplateValidator.Checked checked = TemplateValidator.check(Templates.tree("""
                {"use-case-id": "typo", "name": "Typo", "colour": "#000000",
                 "canvas": {"width": 320, "height": 180, "fps": 25},
                 "segments": [{"id": "a", "duration": 1, "layers": [
                   {"type": "text", "text": "Hi", "fade_in": 0.5, "font-size": 20}]}]}"""), Templates.JSON);

        assertThat(checked.problems()).containsExactly("colour: unknown key",
                "segments[0].layers[0].fade_in: unknown key (did you mean 'fade-in'?)",
                "segments[0].layers[0].font-size: unknown key");
        assertThat(checked.definition()).isNotNull();
        assertThat(checked.valid()).isFalse();

        assertThat(TemplateValidator.check(Templates.tree("""
                {"use-case-id": "typo", "name": "Typo", "canvas": {"width": "wide", "height": 180, "fps": 25}}"""),
                Templates.JSON).problems()).containsExactly("canvas.width: a whole number");
        assertThat(TemplateValidator.check(Templates
                .tree("""
                        {"use-case-id": "typo", "segments": [{"id": "a", "duration": 1, "layers": [{"type": "text", "text": 5}]}]}"""),
                Templates.JSON).problems()).contains("segments[0].layers[0].text: a string");
        assertThat(TemplateValidator.check(Templates.tree("[]"), Templates.JSON).problems())
                .containsExactly("body: a JSON object (the template definition) is required");
    }

    @Test
    void theEarlierFormMappingMustNameDeclaredFieldsAndSlots() {
        TemplateDefinition template = Templates
                .parse("""
                        {"use-case-id": "old", "name": "Old", "canvas": {"width": 320, "height": 180, "fps": 25},
                         "fields": [{"name": "title", "required": true}, {"name": "note"}],
                         "assets": {"images": [{"required": true}], "videos": [{}]},
                         "earlier-form": {"phrase-texts": ["note", "nope", "note"], "image-urls": ["videos[0]", "images[4]"],
                                          "video-urls": ["videos[0]"]},
                         "segments": [{"id": "a", "duration": 1, "layers": [{"type": "text", "text": "{{title}} {{note}}"}]}]}""");

        assertThat(TemplateValidator.validate(template)).containsExactly(
                "earlier-form.phrase-texts[1]: 'nope' is not a declared field",
                "earlier-form.phrase-texts[2]: field 'note' is already filled by another position",
                "earlier-form.image-urls[0]: a slot such as icons[0] or images[0]",
                "earlier-form.image-urls[1]: there is no slot assets.images[4]",
                "earlier-form: required field 'title' is filled by no position",
                "earlier-form: required slot images[0] is filled by no position");
    }

    @Test
    void audioIsSilenceAToneOrATrack() {
        String template = """
                {"use-case-id": "sound", "name": "Sound", "canvas": {"width": 320, "height": 180, "fps": 25},
                 "audio": %s, "segments": [{"id": "a", "duration": 1}]}""";

        assertThat(TemplateValidator.validate(Templates.parse(template.formatted(
                "{\"type\": \"track\", \"url\": \"https://cdn.example.com/music.mp3\", \"volume\": 0.5}")))).isEmpty();
        assertThat(TemplateValidator.validate(Templates.parse(template.formatted(
                "{\"type\": \"tone\", \"frequency\": 5, \"volume\": 2}")))).containsExactly(
                        "audio.frequency: from 20 to 20000 Hz, for a tone", "audio.volume: from 0 to 1");
        assertThat(TemplateValidator.validate(Templates.parse(template.formatted("{\"type\": \"music\"}"))))
                .containsExactly("audio.type: one of silence, tone, track");
    }

    @Test
    void outputsSpeechTransitionsAndMotionAreChecked() {
        TemplateDefinition broken = Templates.parse("""
                {"use-case-id": "features", "name": "Features", "canvas": {"width": 320, "height": 180, "fps": 25},
                 "fields": [{"name": "name"}],
                 "audio": {"type": "tone", "duck": 0.5},
                 "outputs": [{"name": "web", "format": "webm"}, {"name": "web", "format": "avi", "height": 720},
                             {"name": "teaser", "format": "gif", "fps": 50}],
                 "segments": [{"id": "a", "duration": 1, "transition": {"type": "spin", "duration": 2}, "layers": [
                   {"type": "speech", "text": "Hi {{nobody}}", "voice": "en; rm -rf /", "rate": 1000, "x": 10},
                   {"type": "text", "text": "Hi", "motion": "zoom-in", "voice": "en"},
                   {"type": "image", "asset": 0, "width": 10, "height": 10, "motion": "spin"}]}]}""");

        assertThat(TemplateValidator.validate(broken)).contains(
                "audio.duck: from 0 to 1 (the track's volume under speech), for a track",
                "outputs[0].format: the first output is the request's video-url and must be mp4",
                "outputs[1].name: 'web' is used twice",
                "outputs[1].format: one of mp4, webm, gif",
                "outputs[1].height: an even number of pixels from 16 to the canvas height (180)",
                "outputs[2].height: required for a gif, at most 480 pixels",
                "outputs[2].fps: from 1 to the canvas rate (25)",
                "segments[0].transition.type: one of " + String.join(", ",
                        TemplateValidator.TRANSITIONS.stream().sorted().toList()),
                "segments[0].transition.duration: seconds, from 0.1 to 5 and within the segment",
                "segments[0].layers[0].text: {{nobody}} is not a declared field",
                "segments[0].layers[0].voice: an espeak-ng voice name such as en, en-us or de",
                "segments[0].layers[0].rate: from 80 to 450 words per minute",
                "segments[0].layers[0].x: a speech layer is heard, not drawn",
                "segments[0].layers[1]: voice and rate are for speech layers",
                "segments[0].layers[1].motion: only image and icon layers move",
                "segments[0].layers[2].motion: one of zoom-in, zoom-out, pan-left, pan-right");
        assertThat(TemplateValidator.validate(Templates.parse("""
                {"use-case-id": "x", "name": "X", "canvas": {"width": 320, "height": 180, "fps": 25},
                 "segments": [{"id": "a", "duration": "speech"}, {"id": "b", "duration": "long"}]}""")))
                .containsExactly("segments[0].duration: \"speech\" needs a speech layer in the segment",
                        "segments[1].duration: seconds, from 0.1 to 120, or \"speech\"");
    }

    @Test
    void aMissingBodyOrCanvasIsReported() {
        assertThat(TemplateValidator.validate(null)).containsExactly("body: a template definition is required");
        assertThat(TemplateValidator.validate(Templates.parse("{\"use-case-id\": \"x\", \"name\": \"X\"}")))
                .containsExactly("canvas: required (width, height, fps, background)",
                        "segments: at least one segment is required");
    }

    @Test
    void aGradientBackgroundIsCheckedWithItsPath() {
        String template = """
                {"use-case-id": "g", "name": "G", "canvas": {"width": 640, "height": 360, "fps": 25},
                 "assets": {"images": [{"name": "photo"}]},
                 "segments": [{"id": "a", "duration": 1, "background": {"gradient": %s}},
                              {"id": "b", "duration": 1, "background": {"gradient": %s, "image": 0}}]}""";
        String good = "{\"type\": \"linear\", \"from\": [0, 0], \"to\": [1, 0], \"colors\": [\"#000000\", \"#ffffff\"]}";

        assertThat(TemplateValidator.check(Templates.tree(template.formatted(good, good).replace(", \"image\": 0", "")),
                Templates.JSON).problems()).isEmpty();
        assertThat(TemplateValidator.validate(Templates.parse(template.formatted(
                "{\"type\": \"conic\", \"colors\": [\"#000000\", \"#ffffff\"]}", good))))
                .anySatisfy(p -> assertThat(p).startsWith("segments[0].background.gradient"))
                .contains("segments[1].background: a gradient, or an image or a video, not both");
        assertThat(TemplateValidator.validate(Templates.parse(template.formatted("\"#ff0000\"", good)
                .replace(", \"image\": 0", "")))).containsExactly(
                        "segments[0].background.gradient: {\"type\": \"linear\" or \"radial\", \"colors\": [...]} (a colour goes in color)");
    }

    @Test
    void aTextTakesAFillAndABoxFillButNotABoxColourBeside() {
        String template = """
                {"use-case-id": "t", "name": "T", "canvas": {"width": 640, "height": 360, "fps": 25},
                 "segments": [{"id": "a", "duration": 1, "layers": [
                   {"type": "text", "text": "Hi", %s}]}]}""";

        assertThat(TemplateValidator.validate(Templates.parse(template.formatted(
                "\"fill\": {\"type\": \"radial\", \"colors\": [\"#ffffff\", \"#ff0000\"]}, \"box-fill\": \"#000000\""))))
                .isEmpty();
        assertThat(TemplateValidator.validate(Templates.parse(template.formatted(
                "\"box-fill\": \"#000000\", \"box-color\": \"#000000\"")))).containsExactly(
                        "segments[0].layers[0].box-fill: box-color or box-fill, not both");
        assertThat(TemplateValidator.validate(Templates.parse(template.formatted("\"fill\": {\"type\": \"conic\"}"))))
                .singleElement().asString().startsWith("segments[0].layers[0].fill");
    }
}
