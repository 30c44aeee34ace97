package io.pmedia.media.template;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TemplateValidatorTest {

    @ParameterizedTest
    @ValueSource(strings = {"greeting", "vertical-short", "earlier-form"})
    void sampleTemplatesAreValid(String name) {
        assertThat(TemplateValidator.validate(Templates.sample(name))).isEmpty();
    }

    @Test
    void everyProblemIsReportedWithItsPath() {
        TemplateDefinition broken = Templates.parse("""
                {"use-case-id": "Bad Id", "name": "x",
                 "canvas": {"width": 4000, "height": 721, "fps": 120, "background": "blue"},
                 "fields": [{"name": "name"}, {"name": "name"}],
                 "assets": {"images": [{"default": "file:///etc/passwd"}]},
                 "segments": [
                   {"id": "a", "duration": 2, "layers": [
                     {"type": "text", "text": "Hi {{nobody}}", "font": "comic", "color": "red"},
                     {"type": "image", "asset": 3, "width": 10, "height": 10},
                     {"type": "text", "text": "late", "start": 1, "end": 5},
                     {"type": "sparkles"}
                   ]},
                   {"id": "a", "duration": 500, "background": {"color": "#000000", "image": 0}}
                 ]}
                """);
        assertThat(TemplateValidator.validate(broken)).contains(
                "use-case-id: required; lower-case letters, digits, '.', '_' or '-', at most 64",
                "canvas.width: an even number of pixels from 16 to 1920",
                "canvas.height: an even number of pixels from 16 to 1920",
                "canvas.fps: from 1 to 60",
                "canvas.background: a colour like #1d3557",
                "fields[1].name: 'name' is declared twice",
                "assets.images[0].default: an http(s) URL",
                "segments[0].layers[0].text: {{nobody}} is not a declared field",
                "segments[0].layers[1].asset: no slot assets.images[3]",
                "segments[0].layers[2]: start and end must satisfy 0 <= start < end <= the segment's duration",
                "segments[0].layers[3].type: one of text, image, icon, video",
                "segments[1].id: 'a' is used twice",
                "segments[1].background: exactly one of color, image, video")
                .anyMatch(problem -> problem.startsWith("segments[0].layers[0].font: unknown font 'comic'"))
                .anyMatch(problem -> problem.startsWith("segments[1].duration"));
    }
}
