package io.pmedia.media.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pmedia.events.FrameSegment;
import io.pmedia.events.RenderInput;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.Templates;

/**
 * A kept opening is named as its template version's (and so played on every row's link from its first open) only
 * when no request can open differently: no cohort rule in the template, no frame-segments in the request.
 */
class SameOpeningTest {

    private static final RenderInput FIELDS = new RenderInput(Map.of("name", "Ada"), null, null, null, null, null);

    private static TemplateDefinition template(String segment) {
        return Templates.parse("""
                {"use-case-id": "t", "name": "T", "canvas": {"width": 320, "height": 180, "fps": 25},
                 "fields": [{"name": "name"}],
                 "segments": [%s,
                   {"id": "end", "duration": 2, "layers": [{"id": "n", "type": "text", "text": "Hi {{name}}"}]}]}"""
                .formatted(segment));
    }

    @Test
    void onlyATemplateWithoutCohortRulesAndARequestThatMovesNoSegmentOpenAlike() throws Exception {
        String plain = "{\"id\": \"intro\", \"duration\": 2}";
        assertThat(RenderWorker.sameOpening(template(plain), FIELDS)).isTrue();
        assertThat(RenderWorker.sameOpening(Templates.parse(Files.readString(Templates.sampleFile("brand-story"))),
                FIELDS)).isTrue();
        assertThat(RenderWorker.sameOpening(template(
                "{\"id\": \"intro\", \"duration\": 2, \"cohorts\": [\"gold\"]}"), FIELDS)).isFalse();
        assertThat(RenderWorker.sameOpening(template("{\"id\": \"intro\", \"duration\": 2, \"variants\": "
                + "[{\"cohorts\": [\"churned\"], \"skip\": true}]}"), FIELDS)).isFalse();
        RenderInput moved = new RenderInput(Map.of("name", "Ada"), null, null, null, null,
                List.of(new FrameSegment("intro", null, true, null, null, null)));
        assertThat(RenderWorker.sameOpening(template(plain), moved)).isFalse();
    }
}
