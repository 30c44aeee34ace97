package io.pmedia.media.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.pmedia.events.FrameSegment;
import io.pmedia.events.RenderInput;

class RenderInputTest {

    final TemplateDefinition card = Templates.sample("classic-card");
    final TemplateDefinition greeting = Templates.sample("greeting");

    @Test
    void theCurrentFormBecomesFieldsSlotsCohortsAndDirectives() {
        RenderInput input = RenderInputs.fromCurrentForm(Templates.data("""
                {"global_assets": {"images": ["https://a.example/1.png", null], "icons": []},
                 "global_cohorts": [{"cohort": "gold"}, {"cohort": " vip "}, {"cohort": "gold"}],
                 "personalization_fields": {"name": "Ada", "points": 1200, "skip-me": null},
                 "frame_segments": [{"segment_id": "hello", "order": 2, "texts": {"headline": "Hi"}}]}"""));

        assertThat(input.fields()).containsExactly(Map.entry("name", "Ada"), Map.entry("points", "1200"));
        assertThat(input.images()).containsExactly("https://a.example/1.png", "");
        assertThat(input.videos()).isEmpty();
        assertThat(input.cohorts()).containsExactly("gold", "vip");
        assertThat(input.frameSegments()).containsExactly(
                new FrameSegment("hello", 2, null, null, Map.of("headline", "Hi"), null));
    }

    @Test
    void noDataIsNoInput() {
        assertThat(RenderInputs.fromCurrentForm(null)).isEqualTo(RenderInput.empty());
        assertThat(RenderInputs.fromCurrentForm(Templates.data("{}"))).isEqualTo(RenderInput.empty());
    }

    @Test
    void aNullDirectiveIsRefused() {
        assertThatThrownBy(() -> RenderInputs.fromCurrentForm(Templates.data("{\"frame_segments\": [null]}")))
                .hasMessage("frame_segments[0] must be an object");
    }

    @Test
    void theEarlierFormFillsFieldsAndSlotsByTheTemplatesMapping() {
        RenderInput input = RenderInputs.fromEarlierForm(List.of("Dear Ada", "Bye"), List.of("You, in 2019"),
                List.of(), List.of("https://cdn.example.com/ada.png"), null, card);

        assertThat(input.fields()).containsExactly(Map.entry("greeting", "Dear Ada"), Map.entry("closing", "Bye"),
                Map.entry("caption", "You, in 2019"));
        assertThat(input.images()).containsExactly("https://cdn.example.com/ada.png");
        ResolvedVideo video = TemplateResolver.resolve(card, input);
        assertThat(video.assetUrls()).containsExactly("https://cdn.example.com/ada.png");
    }

    @Test
    void withoutMappingPhraseTextsFillTheFieldsInOrderAndImageUrlsTheImageSlots() {
        RenderInput input = RenderInputs.fromEarlierForm(List.of("Ada", "two for one"), null, null,
                List.of("https://cdn.example.com/ada.png"), null, greeting);

        assertThat(input.fields()).containsExactly(Map.entry("name", "Ada"), Map.entry("offer", "two for one"));
        assertThat(input.images()).containsExactly("https://cdn.example.com/ada.png");
    }

    @Test
    void imageUrlsCanFillIconSlots() {
        TemplateDefinition template = Templates.parse("""
                {"use-case-id": "logo", "name": "Logo", "canvas": {"width": 320, "height": 180, "fps": 25},
                 "assets": {"images": [{}], "icons": [{"required": true}]},
                 "earlier-form": {"image-urls": ["icons[0]", "images[0]"]},
                 "segments": [{"id": "a", "duration": 1, "layers": [
                   {"type": "icon", "asset": 0, "width": 20, "height": 20},
                   {"type": "image", "asset": 0, "width": 20, "height": 20}]}]}""");
        assertThat(TemplateValidator.validate(template)).isEmpty();

        RenderInput input = RenderInputs.fromEarlierForm(null, null, null,
                List.of("https://a.example/logo.png", "https://a.example/photo.png"), null, template);

        assertThat(input.icons()).containsExactly("https://a.example/logo.png");
        assertThat(input.images()).containsExactly("https://a.example/photo.png");
        assertThatThrownBy(() -> RenderInputs.fromEarlierForm(null, null, null, null, null, template))
                .hasMessage("image-urls[0] is required by use case 'logo'");
    }

    @Test
    void earlierFormProblemsAreNamedInItsOwnTerms() {
        assertThatThrownBy(() -> RenderInputs.fromEarlierForm(List.of("a", "b", "c"), null, null, null, null, card))
                .isInstanceOf(TemplateResolutionException.class)
                .hasMessage("phrase-texts[2]: use case 'classic-card' takes at most 2 phrase-texts");
        assertThatThrownBy(() -> RenderInputs.fromEarlierForm(List.of("a"), null, List.of("v"), null, null, card))
                .hasMessage("video-texts[0]: use case 'classic-card' takes no video-texts");
        assertThatThrownBy(() -> RenderInputs.fromEarlierForm(List.of("a"), null, null,
                List.of("file:///etc/passwd"), null, card))
                .hasMessage("image-urls[0] is not an http(s) URL or an s3:// object path");
        assertThatThrownBy(() -> RenderInputs.fromEarlierForm(List.of("a"), null, null, null,
                List.of("https://a.example/v.mp4"), card))
                .hasMessage("video-urls[0]: use case 'classic-card' takes no video-urls");
        assertThatThrownBy(() -> RenderInputs.fromEarlierForm(Arrays.asList("", "Bye"), null, null, null, null,
                card))
                .hasMessage("phrase-texts[0] ('greeting') is required by use case 'classic-card'");
    }

    @Test
    void itTravelsInARenderJobAsJson() throws JsonProcessingException {
        RenderInput input = RenderInputs.fromCurrentForm(Templates
                .data("""
                        {"global_assets": {"images": ["https://a.example/1.png"]}, "global_cohorts": [{"cohort": "gold"}],
                         "personalization_fields": {"name": "Ada"},
                         "frame_segments": [{"segment_id": "hello", "skip": true, "assets": {"photo": "https://a.example/p.png"}}]}"""));

        String json = Templates.JSON.writeValueAsString(input);

        assertThat(Templates.JSON.readValue(json, RenderInput.class)).isEqualTo(input);
        assertThat(json).contains("\"frame-segments\"", "\"segment_id\"");
    }

    @Test
    void aTemplateDefinitionTravelsAsJsonUnchanged() throws JsonProcessingException {
        for (String sample : List.of("greeting", "vertical-short", "classic-card")) {
            TemplateDefinition definition = Templates.sample(sample);

            String json = Templates.JSON.writeValueAsString(definition);

            assertThat(Templates.JSON.readValue(json, TemplateDefinition.class)).isEqualTo(definition);
            assertThat(Templates.JSON.readTree(json)).isEqualTo(
                    Templates.JSON.readTree(Templates.JSON.writeValueAsString(Templates.JSON.readValue(json,
                            TemplateDefinition.class))));
        }
    }
}
