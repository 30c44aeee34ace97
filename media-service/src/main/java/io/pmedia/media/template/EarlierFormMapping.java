package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A template's {@code earlier-form} with its defaults applied: what each position of each list fills; and the rules
 * a registered {@code earlier-form} must keep ({@link #check}).
 */
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

    /**
     * The rules of a template's {@code earlier-form} (what each position of the earlier interface's lists fills),
     * added to {@code problems} as {@link TemplateValidator} reports them: names of declared fields and existing
     * slots, none filled twice, every required field and slot filled by some position.
     */
    static void check(TemplateDefinition template, Set<String> fieldNames, List<String> problems) {
        TemplateDefinition.EarlierForm form = template.earlierForm();
        if (form == null) {
            return;
        }
        Set<String> mappedFields = new HashSet<>();
        fieldList(form.phraseTexts(), "earlier-form.phrase-texts", fieldNames, mappedFields, problems);
        fieldList(form.imageTexts(), "earlier-form.image-texts", fieldNames, mappedFields, problems);
        fieldList(form.videoTexts(), "earlier-form.video-texts", fieldNames, mappedFields, problems);
        if (form.phraseTexts() == null) {
            mappedFields.addAll(fieldNames);
        }
        Set<String> mappedSlots = new HashSet<>();
        slotList(form.imageUrls(), "earlier-form.image-urls", Set.of(AssetKind.IMAGE, AssetKind.ICON), template,
                mappedSlots, problems);
        slotList(form.videoUrls(), "earlier-form.video-urls", Set.of(AssetKind.VIDEO), template, mappedSlots,
                problems);
        for (TemplateDefinition.Field field : template.fieldsOrEmpty()) {
            if (field != null && field.requiredOrFalse() && field.name() != null
                    && !mappedFields.contains(field.name())) {
                problems.add("earlier-form: required field '" + field.name() + "' is filled by no position");
            }
        }
        for (AssetKind kind : AssetKind.SLOTS) {
            List<TemplateDefinition.AssetSlot> slots = template.assetsOrEmpty().of(kind);
            boolean defaulted = kind == AssetKind.IMAGE
                    ? form.imageUrls() == null
                    : kind == AssetKind.VIDEO && form.videoUrls() == null;
            for (int i = 0; i < slots.size(); i++) {
                String slot = kind.listName() + "[" + i + "]";
                if (slots.get(i) != null && slots.get(i).requiredOrFalse() && !defaulted
                        && !mappedSlots.contains(slot)) {
                    problems.add("earlier-form: required slot " + slot + " is filled by no position");
                }
            }
        }
    }

    private static void fieldList(List<String> names, String path, Set<String> fieldNames, Set<String> mapped,
            List<String> problems) {
        if (names == null) {
            return;
        }
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (!fieldNames.contains(name)) {
                problems.add(path + "[" + i + "]: '" + name + "' is not a declared field");
            } else if (!mapped.add(name)) {
                problems.add(path + "[" + i + "]: field '" + name + "' is already filled by another position");
            }
        }
    }

    private static void slotList(List<String> refs, String path, Set<AssetKind> kinds, TemplateDefinition template,
            Set<String> mapped, List<String> problems) {
        if (refs == null) {
            return;
        }
        for (int i = 0; i < refs.size(); i++) {
            SlotRef ref = SlotRef.parse(refs.get(i));
            String at = path + "[" + i + "]";
            if (ref == null || !kinds.contains(ref.kind())) {
                problems.add(at + ": a slot such as " + kinds.stream().map(k -> k.listName() + "[0]").sorted()
                        .reduce((a, b) -> a + " or " + b).orElse(""));
            } else if (ref.index() >= template.assetsOrEmpty().of(ref.kind()).size()) {
                problems.add(at + ": there is no slot assets." + ref);
            } else if (!mapped.add(ref.toString())) {
                problems.add(at + ": slot " + ref + " is already filled by another position");
            }
        }
    }

    private static String position(String list, List<String> names, String field) {
        int at = names.indexOf(field);
        return at < 0 ? null : list + "[" + at + "]";
    }
}
