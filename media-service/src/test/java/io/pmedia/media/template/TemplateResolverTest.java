package io.pmedia.media.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class TemplateResolverTest {

    private final TemplateDefinition greeting = Templates.sample("greeting");

    private ResolvedVideo resolve(String data) {
        return TemplateResolver.resolve(greeting, RenderInput.fromCurrentForm(Templates.data(data)));
    }

    private static List<String> texts(ResolvedVideo.Segment segment) {
        return segment.layers().stream().filter(ResolvedVideo.Text.class::isInstance)
                .map(layer -> ((ResolvedVideo.Text) layer).text()).toList();
    }

    @Test
    void fieldsFillPlaceholdersAndDefaultsFillTheRest() {
        ResolvedVideo video = resolve("{\"personalization_fields\": {\"name\": \"Ada\"}}");
        assertThat(video.durationSeconds()).isEqualTo(10.0);
        assertThat(video.segments()).extracting(ResolvedVideo.Segment::id).containsExactly("hello", "offer", "outro");
        assertThat(texts(video.segments().get(0))).containsExactly("Hello Ada!", "We made this video for you");
        assertThat(texts(video.segments().get(1))).containsExactly("Your offer", "a surprise picked just for you");
        assertThat(video.assets()).isEmpty();
    }

    @Test
    void anOptionalImageAppearsWhenGiven() {
        ResolvedVideo video = resolve("""
                {"personalization_fields": {"name": "Ada", "offer": "20% off"},
                 "global_assets": {"images": ["https://cdn.example.com/ada.jpg"]}}""");
        assertThat(video.assets()).containsExactly(Map.entry("https://cdn.example.com/ada.jpg", AssetKind.IMAGE));
        assertThat(texts(video.segments().get(1))).contains("20% off");
    }

    @Test
    void hostileTextIsKeptLiterallyAsData() {
        ResolvedVideo video = resolve("{\"personalization_fields\": {\"name\": \"O'Brien: 100% [x];drawbox\"}}");
        assertThat(texts(video.segments().get(0))).contains("Hello O'Brien: 100% [x];drawbox!");
    }

    @Test
    void missingRequiredFieldIsNamed() {
        assertThatThrownBy(() -> resolve("{\"personalization_fields\": {\"offer\": \"x\"}}"))
                .isInstanceOf(TemplateResolutionException.class)
                .hasMessage("personalization field 'name' is required by use case 'greeting'");
        assertThatThrownBy(() -> resolve("{\"personalization_fields\": {\"name\": \"   \"}}"))
                .hasMessageContaining("'name' is required");
    }

    @Test
    void overlongFieldIsRefused() {
        assertThatThrownBy(() -> resolve("{\"personalization_fields\": {\"name\": \"" + "x".repeat(41) + "\"}}"))
                .hasMessage("personalization field 'name' is longer than 40 characters");
    }

    @Test
    void assetUrlsMustBeHttp() {
        assertThatThrownBy(() -> resolve("""
                {"personalization_fields": {"name": "Ada"}, "global_assets": {"images": ["file:///etc/passwd"]}}"""))
                .hasMessage("global_assets.images[0] is not an http(s) URL");
    }

    @Test
    void cohortSelectsAVariant() {
        ResolvedVideo video = resolve(
                """
                        {"personalization_fields": {"name": "Ada"}, "global_cohorts": [{"cohort": "silver"}, {"cohort": "gold"}]}""");
        assertThat(texts(video.segments().get(0))).containsExactly("Hello Ada, gold member!");
    }

    @Test
    void frameSegmentsReorderSkipRetimeAndOverride() {
        ResolvedVideo video = resolve("""
                {"personalization_fields": {"name": "Ada"},
                 "frame_segments": [
                   {"segment_id": "outro", "order": 1, "duration": 2.0,
                    "texts": {"thanks": "Bye {{name}}"}, "assets": {"photo": "https://cdn.example.com/p.png"}},
                   {"segment_id": "offer", "skip": true}
                 ]}""");
        assertThat(video.segments()).extracting(ResolvedVideo.Segment::id).containsExactly("outro", "hello");
        assertThat(video.segments().get(0).duration()).isEqualTo(2.0);
        assertThat(texts(video.segments().get(0))).containsExactly("Bye Ada");
        assertThat(video.assets()).containsKey("https://cdn.example.com/p.png");
        assertThat(video.durationSeconds()).isEqualTo(5.5);
        assertThat(video.segments().get(0).layers()).allMatch(layer -> layer.end() <= 2.0);
    }

    @Test
    void invalidSegmentReferencesAreNamed() {
        assertThatThrownBy(() -> resolve("""
                {"personalization_fields": {"name": "Ada"}, "frame_segments": [{"segment_id": "intro"}]}"""))
                .hasMessage("frame_segments[0].segment_id: no segment 'intro' in use case 'greeting' "
                        + "(segments: hello, offer, outro)");
        assertThatThrownBy(() -> resolve("""
                {"personalization_fields": {"name": "Ada"},
                 "frame_segments": [{"segment_id": "hello", "texts": {"nope": "x"}}]}"""))
                .hasMessage("frame_segments[0].texts: segment 'hello' has no text layer 'nope'");
        assertThatThrownBy(() -> resolve("""
                {"personalization_fields": {"name": "Ada"}, "frame_segments": [
                  {"segment_id": "hello", "skip": true}, {"segment_id": "offer", "skip": true},
                  {"segment_id": "outro", "skip": true}]}"""))
                .hasMessageContaining("skip every segment");
    }

    @Test
    void earlierFormFillsFieldsByPosition() {
        TemplateDefinition card = Templates.sample("earlier-form");
        RenderInput input = RenderInput.fromEarlierForm(List.of("Dear Ada", "Bye"), List.of("You, in 2019"),
                List.of(), List.of("https://cdn.example.com/ada.png"), List.of(), card);
        assertThat(input.fields()).isEqualTo(Map.of("greeting", "Dear Ada", "closing", "Bye",
                "caption", "You, in 2019"));
        ResolvedVideo video = TemplateResolver.resolve(card, input);
        assertThat(video.assets()).containsOnlyKeys("https://cdn.example.com/ada.png");
        assertThat(RenderInput.fromEarlierForm(List.of("Hi"), null, null, null, null, greeting).fields())
                .isEqualTo(Map.of("name", "Hi"));
        assertThat(input.cohorts()).isEqualTo(Set.of());
    }
}
