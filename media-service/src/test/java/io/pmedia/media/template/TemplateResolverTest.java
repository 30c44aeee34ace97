package io.pmedia.media.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TemplateResolverTest {

    /** A template with a bit of everything the resolver handles. */
    static final TemplateDefinition PROMO = Templates
            .parse("""
                    {"use-case-id": "promo", "name": "Promo",
                     "canvas": {"width": 640, "height": 360, "fps": 25, "background": "#101010"},
                     "fields": [{"name": "name", "required": true, "max-length": 30},
                                {"name": "offer", "default": "a gift"}, {"name": "caption"}],
                     "assets": {"images": [{"name": "photo"}, {"name": "banner", "default": "https://cdn.example.com/banner.png"}],
                                "videos": [{"name": "clip", "required": true}]},
                     "segments": [
                       {"id": "intro", "duration": 2, "background": {"video": 0}, "fade-out": 0.2, "layers": [
                         {"id": "hello", "type": "text", "text": "Hi {{name}}", "start": 0.5, "end": 1.5, "fade": 0.25}]},
                       {"id": "offer", "duration": 2, "background": {"image": 1, "color": "#202020"}, "layers": [
                         {"id": "offer", "type": "text", "text": "{{offer}}"},
                         {"id": "photo", "type": "image", "asset": 0, "x": 10, "y": 10, "width": 100, "height": 100},
                         {"id": "caption", "type": "text", "text": "Photo: {{caption}}", "y": "bottom"}],
                        "variants": [{"cohorts": ["gold"], "layers": [{"id": "offer", "type": "text", "text": "Gold: {{offer}}"}]},
                                     {"cohorts": ["churned", "gold"], "skip": true}]},
                       {"id": "vip", "duration": 1, "cohorts": ["gold"], "layers": [{"id": "vip", "type": "text", "text": "VIP"}]},
                       {"id": "outro", "duration": 1.5, "layers": [{"id": "bye", "type": "text", "text": "Bye {{name}}"}]}
                     ]}""");

    static final String CLIP = "https://cdn.example.com/clip.mp4";
    static final String BANNER = "https://cdn.example.com/banner.png";

    /**
     * Data with the required name and clip, plus {@code more} (JSON members without braces); a member of
     * {@code more} replaces the one given before it.
     */
    static ResolvedVideo promo(String more) {
        return Templates.resolve(PROMO, """
                {"personalization_fields": {"name": "Ada"}, "global_assets": {"videos": ["%s"]}%s}"""
                .formatted(CLIP, more.isEmpty() ? "" : ", " + more));
    }

    static void failsWith(String data, String message) {
        assertThatThrownBy(() -> Templates.resolve(PROMO, data))
                .isInstanceOf(TemplateResolutionException.class)
                .hasMessage(message);
    }

    static List<String> ids(ResolvedVideo video) {
        return video.segments().stream().map(ResolvedVideo.Segment::id).toList();
    }

    static List<String> texts(ResolvedVideo.Segment segment) {
        return segment.layers().stream().filter(ResolvedVideo.Text.class::isInstance)
                .map(layer -> ((ResolvedVideo.Text) layer).text()).toList();
    }

    static ResolvedVideo.Segment segment(ResolvedVideo video, String id) {
        return video.segments().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
    }

    @Nested
    class FieldsAndSlots {

        @Test
        void fieldsFillPlaceholdersAndOptionalOnesTakeTheirDefaults() {
            ResolvedVideo video = promo("");

            assertThat(ids(video)).containsExactly("intro", "offer", "outro");
            assertThat(texts(video.segments().get(0))).containsExactly("Hi Ada");
            assertThat(texts(video.segments().get(1))).containsExactly("a gift");
            assertThat(texts(video.segments().get(2))).containsExactly("Bye Ada");
        }

        @Test
        void aTextWhosePlaceholdersAreAllEmptyIsLeftOutAndSoIsAPictureWithoutAsset() {
            ResolvedVideo.Segment offer = promo("").segments().get(1);

            assertThat(texts(offer)).doesNotContain("Photo:");
            assertThat(offer.layers()).noneMatch(ResolvedVideo.Picture.class::isInstance);
        }

        @Test
        void slotsFillByIndexAndDefaultUrlsStandIn() {
            ResolvedVideo video = promo("");

            assertThat(video.segments().get(0).background())
                    .isEqualTo(new ResolvedVideo.Background("#101010", CLIP, AssetKind.VIDEO));
            assertThat(video.segments().get(1).background())
                    .isEqualTo(new ResolvedVideo.Background("#202020", BANNER, AssetKind.IMAGE));
            assertThat(video.assets()).containsExactly(Map.entry(CLIP, AssetKind.VIDEO),
                    Map.entry(BANNER, AssetKind.IMAGE));
            assertThat(video.assetUrls()).containsExactly(CLIP, BANNER);
        }

        @Test
        void aGivenImageAppearsInItsBox() {
            ResolvedVideo video = promo("""
                    "global_assets": {"videos": ["%s"], "images": [" https://cdn.example.com/ada.jpg ", ""]}"""
                    .formatted(CLIP));

            assertThat(video.segments().get(1).layers()).contains(new ResolvedVideo.Picture(
                    "https://cdn.example.com/ada.jpg", AssetKind.IMAGE, "10", "10", 100, 100, PictureFit.CONTAIN, 0, 2,
                    0, 0, null));
            assertThat(video.segments().get(1).background().url()).isEqualTo(BANNER);
        }

        @Test
        void valuesAreCleanedAndInsertedLiterallyOnce() {
            ResolvedVideo video = Templates.resolve(PROMO,
                    """
                            {"personalization_fields": {"name": "O'Brien: 100% [x];drawbox", "offer": "{{name}} \\t\\u202eoff\\r\\nnow\\u0000",
                                                        "caption": 42},
                             "global_assets": {"videos": ["CLIP"], "images": ["https://cdn.example.com/a.jpg"]}}"""
                            .replace("CLIP", CLIP));

            assertThat(texts(video.segments().get(0))).containsExactly("Hi O'Brien: 100% [x];drawbox");
            assertThat(texts(video.segments().get(1))).containsExactly("{{name}}  off\nnow", "Photo: 42");
        }

        @Test
        void numbersAndBooleansAreTexts() {
            ResolvedVideo video = Templates.resolve(PROMO, """
                    {"personalization_fields": {"name": 7, "offer": 19.90, "caption": true},
                     "global_assets": {"videos": ["%s"]}}""".formatted(CLIP));

            assertThat(texts(video.segments().get(0))).containsExactly("Hi 7");
            assertThat(texts(video.segments().get(1))).containsExactly("19.9", "Photo: true");
        }

        @Test
        void aMissingRequiredFieldIsNamed() {
            failsWith("{\"global_assets\": {\"videos\": [\"" + CLIP + "\"]}}",
                    "personalization field 'name' is required by use case 'promo'");
            failsWith("{\"personalization_fields\": {\"name\": \" \\n \"}, \"global_assets\": {\"videos\": [\"" + CLIP
                    + "\"]}}", "personalization field 'name' is required by use case 'promo'");
            failsWith("{\"personalization_fields\": {\"name\": null}, \"global_assets\": {\"videos\": [\"" + CLIP
                    + "\"]}}", "personalization field 'name' is required by use case 'promo'");
        }

        @Test
        void aFieldTheTemplateDoesNotUseIsIgnoredAndNamed() {
            String data = "{\"personalization_fields\": {\"name\": \"Ada\", \"first_name\": \"Ada\", \"tier\": 3},"
                    + " \"global_assets\": {\"videos\": [\"" + CLIP + "\"]}}";
            ResolvedVideo video = Templates.resolve(PROMO, data);
            assertThat(texts(segment(video, "intro"))).containsExactly("Hi Ada");
            assertThat(TemplateResolver.ignoredFields(PROMO, RenderInputs.fromCurrentForm(Templates.data(data))))
                    .containsExactly("first_name", "tier");
        }

        @Test
        void aFieldLongerThanItsLimitIsRefusedCountingCharactersNotBytes() {
            failsWith("{\"personalization_fields\": {\"name\": \"" + "x".repeat(31) + "\"}}",
                    "personalization field 'name' is longer than 30 characters");
            assertThat(promo("\"personalization_fields\": {\"name\": \"" + "\uD83D\uDE00".repeat(30) + "\"}")
                    .segments()).isNotEmpty();
        }

        @Test
        void aFieldThatIsAnObjectIsRefused() {
            failsWith("{\"personalization_fields\": {\"name\": {\"first\": \"Ada\"}}}",
                    "personalization field 'name' must be a string, a number or a boolean");
        }

        @Test
        void aMissingRequiredSlotIsNamed() {
            failsWith("{\"personalization_fields\": {\"name\": \"Ada\"}}",
                    "global_assets.videos[0] is required by use case 'promo'");
        }

        @ParameterizedTest
        @ValueSource(strings = {"file:///etc/passwd", "javascript:alert(1)", "http://", "https://exa mple.com/a.png",
                "ftp://example.com/a.png", "//example.com/a.png", "gopher://example.com"})
        void assetUrlsMustBeHttp(String url) {
            failsWith("""
                    {"personalization_fields": {"name": "Ada"},
                     "global_assets": {"videos": ["%s"], "images": [%s]}}""".formatted(CLIP,
                    Templates.JSON.valueToTree(url)),
                    "global_assets.images[0] is not an http(s) URL or an s3:// object path");
        }

        @Test
        void anAssetBeyondTheTemplatesSlotsIsOutOfRange() {
            failsWith("""
                    {"personalization_fields": {"name": "Ada"},
                     "global_assets": {"videos": ["%s"], "images": ["", "", "https://cdn.example.com/3.png"]}}"""
                    .formatted(CLIP), "global_assets.images[2] is out of range: use case 'promo' takes 2 images");
            failsWith("""
                    {"personalization_fields": {"name": "Ada"},
                     "global_assets": {"videos": ["%s", "%s"]}}""".formatted(CLIP, CLIP),
                    "global_assets.videos[1] is out of range: use case 'promo' takes 1 video");
            failsWith("""
                    {"personalization_fields": {"name": "Ada"},
                     "global_assets": {"videos": ["%s"], "icons": ["https://cdn.example.com/i.png"]}}"""
                    .formatted(CLIP), "global_assets.icons[0] is out of range: use case 'promo' takes no icons");
            assertThat(promo("\"global_assets\": {\"videos\": [\"" + CLIP + "\"], \"icons\": [\"\", null]}")
                    .assets()).hasSize(2);
        }
    }

    @Nested
    class Cohorts {

        @Test
        void aCohortSelectsItsVariantAndShowsTheSegmentsOnlyForIt() {
            ResolvedVideo video = promo("\"global_cohorts\": [{\"cohort\": \"silver\"}, {\"cohort\": \"gold\"}]");

            assertThat(ids(video)).containsExactly("intro", "offer", "vip", "outro");
            assertThat(texts(segment(video, "offer"))).containsExactly("Gold: a gift");
            assertThat(segment(video, "offer").layers()).hasSize(1);
        }

        @Test
        void theFirstMatchingVariantInTheTemplatesOrderWinsWhateverTheRequestsOrder() {
            ResolvedVideo video = promo("\"global_cohorts\": [{\"cohort\": \"churned\"}, {\"cohort\": \"gold\"}]");

            assertThat(texts(segment(video, "offer"))).containsExactly("Gold: a gift");
        }

        @Test
        void aVariantCanSkipItsSegment() {
            assertThat(ids(promo("\"global_cohorts\": [{\"cohort\": \"churned\"}]")))
                    .containsExactly("intro", "outro");
        }

        @Test
        void aCohortWithoutNameIsRefused() {
            failsWith("{\"global_cohorts\": [{\"cohort\": \" \"}]}", "global_cohorts[0].cohort is required");
            failsWith("{\"global_cohorts\": [{\"tier\": \"gold\"}]}", "global_cohorts[0].cohort is required");
        }
    }

    @Nested
    class FrameSegments {

        @Test
        void segmentsAreReorderedOrderedOnesFirst() {
            ResolvedVideo video = promo("""
                    "frame_segments": [{"segment_id": "offer", "order": 2}, {"segment_id": "outro", "order": 1}]""");

            assertThat(ids(video)).containsExactly("outro", "offer", "intro");
        }

        @Test
        void aNewDurationStretchesKeyframeTimesAsItStretchesTheirLayers() {
            TemplateDefinition template = Templates
                    .parse("""
                            {"use-case-id": "moving", "name": "Moving", "canvas": {"width": 320, "height": 180, "fps": 25},
                             "assets": {"images": [{"default": "https://a.example/p.png"}]},
                             "segments": [{"id": "a", "duration": 3, "layers": [
                               {"id": "hi", "type": "text", "text": "Hi", "keyframes": [{"time": 0, "x": 0}, {"time": 3, "x": 9}]},
                               {"id": "p", "type": "image", "asset": 0, "width": 40, "height": 40, "start": 1,
                                "keyframes": [{"time": 0.5, "opacity": 0}, {"time": 2, "opacity": 1}]}]}]}""");

            ResolvedVideo shorter = Templates.resolve(template, """
                    {"frame_segments": [{"segment_id": "a", "duration": 1.2}]}""");
            ResolvedVideo same = Templates.resolve(template, "{}");

            List<ResolvedVideo.Layer> layers = shorter.segments().get(0).layers();
            // 3 s written, 1.2 s shown: every layer timing, keyframes' too, at 0.4 times
            assertThat(((ResolvedVideo.Text) layers.get(0)).keyframes().get(1).get("time").asDouble())
                    .isCloseTo(1.2, within(1e-9));
            ResolvedVideo.Picture picture = (ResolvedVideo.Picture) layers.get(1);
            assertThat(picture.end() - picture.start()).isCloseTo(0.8, within(1e-9));
            assertThat(picture.keyframes().get(0).get("time").asDouble()).isCloseTo(0.2, within(1e-9));
            assertThat(picture.keyframes().get(1).get("time").asDouble()).isCloseTo(0.8, within(1e-9));
            assertThat(((ResolvedVideo.Picture) same.segments().get(0).layers().get(1)).keyframes())
                    .as("as written when nothing stretches").isSameAs(template.segments().get(0).layers().get(1)
                            .keyframes());
        }

        @Test
        void segmentsAreSkipped() {
            assertThat(ids(promo("\"frame_segments\": [{\"segment_id\": \"intro\", \"skip\": true}]")))
                    .containsExactly("offer", "outro");
        }

        @Test
        void aNewDurationStretchesTheLayerTimingsButNotTheFades() {
            ResolvedVideo video = promo("\"frame_segments\": [{\"segment_id\": \"intro\", \"duration\": 4}]");

            ResolvedVideo.Segment intro = video.segments().get(0);
            assertThat(intro.duration()).isEqualTo(4.0);
            assertThat(intro.frames()).isEqualTo(100);
            ResolvedVideo.Layer hello = intro.layers().get(0);
            assertThat(hello.start()).isEqualTo(1.0);
            assertThat(hello.end()).isEqualTo(3.0);
            assertThat(hello.fadeIn()).isEqualTo(0.25);
            assertThat(intro.fadeOut()).isEqualTo(0.2);
            assertThat(video.durationSeconds()).isCloseTo(4 + 2 + 1.5, within(0.05));
        }

        @Test
        void textsAndAssetsOfNamedLayersAndTheBackgroundAreOverridden() {
            ResolvedVideo video = promo(
                    """
                            "personalization_fields": {"name": "Ada", "caption": "me"},
                            "frame_segments": [{"segment_id": "offer",
                              "texts": {"offer": "Only for {{name}}: 50%", "caption": "{{caption}}!"},
                              "assets": {"photo": "https://cdn.example.com/p.png", "background": "https://cdn.example.com/bg.jpg"}}]""");

            ResolvedVideo.Segment offer = video.segments().get(1);
            assertThat(texts(offer)).containsExactly("Only for Ada: 50%", "me!");
            assertThat(offer.background().url()).isEqualTo("https://cdn.example.com/bg.jpg");
            assertThat(offer.layers()).anyMatch(layer -> layer instanceof ResolvedVideo.Picture picture
                    && picture.url().equals("https://cdn.example.com/p.png"));
            assertThat(video.assets()).doesNotContainKey(BANNER);
        }

        @Test
        void anEmptyTextOverrideRemovesTheText() {
            ResolvedVideo video = promo(
                    "\"frame_segments\": [{\"segment_id\": \"outro\", \"texts\": {\"bye\": \"\"}}]");

            assertThat(video.segments().get(2).layers()).isEmpty();
        }

        @Test
        void theCohortRulesComeFirst() {
            ResolvedVideo video = promo("""
                    "global_cohorts": [{"cohort": "churned"}],
                    "frame_segments": [{"segment_id": "offer", "skip": false, "order": 1}]""");

            assertThat(ids(video)).containsExactly("intro", "outro");
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
                {}                                                         | frame_segments[0].segment_id is required
                {"segment_id": "middle"}                                   | frame_segments[0].segment_id: use case 'promo' has no segment 'middle' (segments: intro, offer, vip, outro)
                {"segment_id": "intro", "duration": 0.05}                  | frame_segments[0].duration must be from 0.1 to 120 seconds
                {"segment_id": "intro", "duration": 500}                   | frame_segments[0].duration must be from 0.1 to 120 seconds
                {"segment_id": "offer", "texts": {"photo": "x"}}           | frame_segments[0].texts.photo: segment 'offer' has no text layer 'photo'
                {"segment_id": "offer", "texts": {"offer": "{{nobody}}"}}  | frame_segments[0].texts.offer: {{nobody}} is not a field of use case 'promo'
                {"segment_id": "offer", "assets": {"offer": "https://a.example/x.png"}} | frame_segments[0].assets.offer: segment 'offer' has no image, icon or video layer 'offer'
                {"segment_id": "offer", "assets": {"photo": "ftp://a.example/x.png"}}   | frame_segments[0].assets.photo is not an http(s) URL or an s3:// object path
                {"segment_id": "outro", "assets": {"background": "https://a.example/x.png"}} | frame_segments[0].assets.background: segment 'outro' has no image or video background
                """)
        void invalidDirectivesAreNamed(String directive, String message) {
            failsWith("""
                    {"personalization_fields": {"name": "Ada"}, "global_assets": {"videos": ["%s"]},
                     "frame_segments": [%s]}""".formatted(CLIP, directive), message);
        }

        @Test
        void aSegmentNamedTwiceIsRefused() {
            failsWith("""
                    {"personalization_fields": {"name": "Ada"}, "global_assets": {"videos": ["%s"]},
                     "frame_segments": [{"segment_id": "intro"}, {"segment_id": "intro", "skip": true}]}"""
                    .formatted(CLIP), "frame_segments[1].segment_id: segment 'intro' is named twice");
        }

        @Test
        void anOverlongTextOverrideIsRefused() {
            failsWith("""
                    {"personalization_fields": {"name": "Ada"}, "global_assets": {"videos": ["%s"]},
                     "frame_segments": [{"segment_id": "outro", "texts": {"bye": "%s"}}]}"""
                    .formatted(CLIP, "x".repeat(501)), "frame_segments[0].texts.bye is longer than 500 characters");
        }

        @Test
        void skippingEverySegmentLeavesNothingToRender() {
            failsWith("""
                    {"personalization_fields": {"name": "Ada"}, "global_assets": {"videos": ["%s"]},
                     "frame_segments": [{"segment_id": "intro", "skip": true}, {"segment_id": "offer", "skip": true},
                                        {"segment_id": "outro", "skip": true}]}""".formatted(CLIP),
                    "nothing left to render: frame_segments and the cohort rules of use case 'promo' "
                            + "leave out every segment");
        }

        @Test
        void theVideoMayNotGrowBeyondTheLimit() {
            failsWith(
                    """
                            {"personalization_fields": {"name": "Ada"}, "global_assets": {"videos": ["%s"]},
                             "frame_segments": [{"segment_id": "intro", "duration": 60}, {"segment_id": "offer", "duration": 60}]}"""
                            .formatted(CLIP),
                    "the video would last 121.52 s; at most 120 s");
        }
    }

    @Nested
    class Timeline {

        @Test
        void segmentsLastWholeFramesAndLayersKeepTheirTimingAndFades() {
            ResolvedVideo video = promo("");

            assertThat(video.segments()).extracting(ResolvedVideo.Segment::frames).containsExactly(50, 50, 38);
            assertThat(video.frames()).isEqualTo(138);
            assertThat(video.durationSeconds()).isEqualTo(5.52);
            ResolvedVideo.Text hello = (ResolvedVideo.Text) video.segments().get(0).layers().get(0);
            assertThat(hello).isEqualTo(new ResolvedVideo.Text("Hi Ada", "sans", 48, "#ffffff", null, null,
                    "center", "center", "center", null, 2, 29, 1.2, 0.5, 1.5, 0.25, 0.25));
        }

        @Test
        void resolutionIsDeterministic() {
            assertThat(promo("\"global_cohorts\": [{\"cohort\": \"gold\"}]"))
                    .isEqualTo(promo("\"global_cohorts\": [{\"cohort\": \"gold\"}]"));
        }

        @Test
        void everyOutputHasASoundTrackSilenceUnlessTheTemplateSaysOtherwise() {
            assertThat(promo("").audio()).isEqualTo(ResolvedVideo.Audio.silence());
        }
    }

    @Nested
    class TheDemoTemplate {

        final TemplateDefinition greeting = Templates.sample("greeting");

        @Test
        void rendersTenSecondsWithTheNameOnly() {
            ResolvedVideo video = Templates.resolve(greeting, "{\"personalization_fields\": {\"name\": \"Ada\"}}");

            assertThat(video.durationSeconds()).isEqualTo(10.0);
            assertThat(video.canvas()).isEqualTo(new TemplateDefinition.Canvas(1280, 720, 30, "#1d3557"));
            assertThat(texts(video.segments().get(0))).containsExactly("Hello Ada!", "We made this video for you");
            assertThat(texts(video.segments().get(1))).containsExactly("Your offer",
                    "a surprise picked just for you");
            assertThat(texts(video.segments().get(2))).containsExactly("See you soon, Ada");
            assertThat(video.assets()).isEmpty();
        }

        @Test
        void usesTheOfferAndThePhotoWhenGiven() {
            ResolvedVideo video = Templates.resolve(greeting, """
                    {"personalization_fields": {"name": "Ada", "offer": "20% off"},
                     "global_assets": {"images": ["https://cdn.example.com/ada.jpg"]}}""");

            assertThat(texts(video.segments().get(1))).contains("20% off");
            assertThat(video.assets()).containsExactly(Map.entry("https://cdn.example.com/ada.jpg", AssetKind.IMAGE));
        }

        @Test
        void greetsGoldMembersDifferently() {
            ResolvedVideo video = Templates.resolve(greeting,
                    "{\"personalization_fields\": {\"name\": \"Ada\"}, \"global_cohorts\": [{\"cohort\": \"gold\"}]}");

            assertThat(texts(video.segments().get(0))).containsExactly("Hello Ada, gold member!",
                    "Thank you for being with us");
        }
    }

    @Test
    void aRightToLeftValueInsideASentenceIsIsolatedSoTheSentenceKeepsItsDirection() {
        Map<String, String> fields = Map.of("name", "محمد", "latin", "Ada");

        assertThat(Placeholders.substitute("{{name}}, this one is yours", fields, true))
                .isEqualTo("\u2068محمد\u2069, this one is yours");
        assertThat(Placeholders.substitute("{{name}}", fields, true)).as("only a value: its own direction")
                .isEqualTo("محمد");
        assertThat(Placeholders.substitute("Hi {{latin}}", fields, true)).isEqualTo("Hi Ada");
        assertThat(Placeholders.substitute("{{name}}, this one is yours", fields, false)).as("speech")
                .isEqualTo("محمد, this one is yours");
    }
}
