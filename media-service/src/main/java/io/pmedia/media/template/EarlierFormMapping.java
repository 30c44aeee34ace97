package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A template's {@code earlier-form} with its defaults applied: what each position of each list fills. */
record EarlierFormMapping(List<String> phraseTexts, List<String> imageTexts, List<String> videoTexts,
        List<SlotRef> imageUrls, List<SlotRef> videoUrls) {

    static final Pattern SLOT_REF = Pattern.compile("(images|videos|icons)\\[(\\d{1,2})]");

    /** A slot such as {@code icons[1]}. */
    record SlotRef(AssetKind kind, int index) {

        /** The slot {@code text} names; null when it names none. */
        static SlotRef parse(String text) {
            Matcher matcher = text == null ? null : SLOT_REF.matcher(text);
            if (matcher == null || !matcher.matches()) {
                return null;
            }
            return new SlotRef(AssetKind.ofList(matcher.group(1)), Integer.parseInt(matcher.group(2)));
        }

        @Override
        public String toString() {
            return kind.listName() + "[" + index + "]";
        }
    }

    static EarlierFormMapping of(TemplateDefinition template) {
        TemplateDefinition.EarlierForm form = template.earlierForm();
        List<String> phraseTexts = form != null && form.phraseTexts() != null
                ? form.phraseTexts()
                : template.fieldsOrEmpty().stream().map(TemplateDefinition.Field::name).toList();
        return new EarlierFormMapping(phraseTexts,
                form != null && form.imageTexts() != null ? form.imageTexts() : List.of(),
                form != null && form.videoTexts() != null ? form.videoTexts() : List.of(),
                refs(form == null ? null : form.imageUrls(), AssetKind.IMAGE, template),
                refs(form == null ? null : form.videoUrls(), AssetKind.VIDEO, template));
    }

    private static List<SlotRef> refs(List<String> mapped, AssetKind kind, TemplateDefinition template) {
        List<SlotRef> refs = new ArrayList<>();
        if (mapped == null) {
            for (int i = 0; i < template.assetsOrEmpty().of(kind).size(); i++) {
                refs.add(new SlotRef(kind, i));
            }
            return refs;
        }
        for (String text : mapped) {
            SlotRef ref = SlotRef.parse(text);
            if (ref == null || ref.index() >= template.assetsOrEmpty().of(ref.kind()).size()) {
                throw new TemplateResolutionException(
                        "use case '" + template.useCaseId() + "' has an invalid earlier-form mapping");
            }
            refs.add(ref);
        }
        return refs;
    }

    /** Where the earlier form fills a field, for messages: {@code phrase-texts[0] ('greeting')}; null if nowhere. */
    String textPositionOf(String field) {
        String position = position("phrase-texts", phraseTexts, field);
        position = position != null ? position : position("image-texts", imageTexts, field);
        position = position != null ? position : position("video-texts", videoTexts, field);
        return position == null ? null : position + " ('" + field + "')";
    }

    /** Where the earlier form fills a slot, for messages: {@code image-urls[0]}; null if nowhere. */
    String urlPositionOf(AssetKind kind, int index) {
        SlotRef slot = new SlotRef(kind, index);
        if (imageUrls.contains(slot)) {
            return "image-urls[" + imageUrls.indexOf(slot) + "]";
        }
        if (videoUrls.contains(slot)) {
            return "video-urls[" + videoUrls.indexOf(slot) + "]";
        }
        return null;
    }

    private static String position(String list, List<String> names, String field) {
        int at = names.indexOf(field);
        return at < 0 ? null : list + "[" + at + "]";
    }
}
