package dev.tclab.lesson.markdown;

import com.vladsch.flexmark.ast.BulletList;
import com.vladsch.flexmark.ast.FencedCodeBlock;
import com.vladsch.flexmark.ast.Heading;
import com.vladsch.flexmark.ast.IndentedCodeBlock;
import com.vladsch.flexmark.ast.OrderedList;
import com.vladsch.flexmark.ast.Paragraph;
import com.vladsch.flexmark.ast.ThematicBreak;
import com.vladsch.flexmark.util.ast.Node;
import com.vladsch.flexmark.util.sequence.BasedSequence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Warns of a paragraph that ends in ':' right before a guarded block when, on some kernel, the paragraph is shown but
 * that block is not, and no block of the same type (a fallback) takes its place: the sentence then introduces
 * whatever comes next, which was not written for it (docs/authoring.md, "Guards: if= and unless="). A fallback is a
 * block of the same type (cmd for a cmd, prose for prose, text for a text block) in the run of guarded blocks right
 * after the paragraph, which ends at the first block every kernel shows; the text of a prose block counts as blocks
 * with the prose block's guard. So an {@code if=} block followed by its {@code unless=} twin is fine, so is a
 * paragraph guarded like the block after it, and so are two guarded sentences, one per kernel, before a block both
 * introduce.
 */
final class ColonBeforeGuardedBlock {

    /** More features than this in one run are not combined (no lesson guards on that many). */
    private static final int MOST_FEATURES = 8;

    /** One block of the text as read top to bottom, with the guard that can hide it (null: always shown). */
    private record Item(Node node, BlockContext.Guarded guard, int firstLine) {}

    private final BlockContext context;

    private ColonBeforeGuardedBlock(BlockContext context) {
        this.context = context;
    }

    /** Adds the warnings for a parsed file (every guarded block kept) to the context. */
    static void check(Node document, int firstLine, BlockContext context) {
        new ColonBeforeGuardedBlock(context).container(document, firstLine);
    }

    private void container(Node parent, int firstLine) {
        List<Item> items = new ArrayList<>();
        for (Node child = parent.getFirstChild(); child != null; child = child.getNext()) {
            BlockContext.Guarded guard = context.guardOf(child);
            if (child instanceof LessonBlocks.Prose prose) {
                for (Node text = prose.getFirstChild(); text != null; text = text.getNext()) {
                    items.add(new Item(text, guard, prose.contentLine));
                }
            } else {
                items.add(new Item(child, guard, firstLine));
            }
            if (child instanceof LessonBlocks.Hint hint) {
                container(hint, hint.contentLine);
            }
        }
        for (int i = 0; i + 1 < items.size(); i++) {
            if (endsInColon(items.get(i).node()) && items.get(i + 1).guard() != null) {
                colon(items, i);
            }
        }
    }

    /**
     * Warns when, on some kernel that shows the paragraph at {@code i}, a block after it that could show with it (one
     * meant for the sentence) is hidden, and what follows instead is not a block of the same type with a guard (its
     * fallback). Blocks that never show with the sentence are its alternatives (a twin of a guarded sentence) and are
     * passed over.
     */
    private void colon(List<Item> items, int i) {
        Item paragraph = items.get(i);
        int end = i + 1;
        while (end < items.size() && items.get(end).guard() != null) {
            end++;
        }
        TreeSet<String> features = new TreeSet<>();
        for (int j = i; j < end; j++) {
            addFeatures(items.get(j).guard(), features);
        }
        if (features.size() > MOST_FEATURES) {
            return;
        }
        List<Map<String, Boolean>> worlds = worlds(List.copyOf(features));
        for (Map<String, Boolean> has : worlds) {
            if (!shows(paragraph.guard(), has)) {
                continue;
            }
            Item meant = null;
            Item next = end < items.size() ? items.get(end) : null;
            for (int j = i + 1; j < end; j++) {
                Item item = items.get(j);
                if (shows(item.guard(), has)) {
                    next = item;
                    break;
                }
                if (meant == null && showTogether(paragraph, item, worlds)) {
                    meant = item;
                }
            }
            if (meant != null
                    && (next == null || next.guard() == null || !kind(next).equals(kind(meant)))) {
                warn(paragraph, meant, next, has);
                return;
            }
        }
    }

    /** Every combination of having and lacking these features. */
    private static List<Map<String, Boolean>> worlds(List<String> names) {
        List<Map<String, Boolean>> worlds = new ArrayList<>();
        for (int world = 0; world < 1 << names.size(); world++) {
            Map<String, Boolean> has = new LinkedHashMap<>();
            for (int f = 0; f < names.size(); f++) {
                has.put(names.get(f), (world & 1 << f) != 0);
            }
            worlds.add(has);
        }
        return worlds;
    }

    private static boolean showTogether(Item a, Item b, List<Map<String, Boolean>> worlds) {
        return worlds.stream().anyMatch(has -> shows(a.guard(), has) && shows(b.guard(), has));
    }

    /** What a guarded item is: text of a prose block, or the type of block it is (cmd, text, ...). */
    private static String kind(Item item) {
        return item.guard().info().type();
    }

    private void warn(Item paragraph, Item next, Item after, Map<String, Boolean> world) {
        BlockContext.Guarded block = next.guard();
        String type = block.info().type();
        String fallback = block.info().ifFeature() != null && block.info().unlessFeature() == null
                ? " (```" + type + " ... unless=" + block.info().ifFeature() + ")"
                : block.info().unlessFeature() != null && block.info().ifFeature() == null
                        ? " (```" + type + " ... if=" + block.info().unlessFeature() + ")"
                        : "";
        context.warning(
                line(paragraph.node(), lastOffset(paragraph.node()), paragraph.firstLine()),
                "this sentence ends in ':', but the " + type + " block after it (line " + block.line() + ") is shown"
                        + " only when " + condition(block.info()) + ", and on a kernel " + kernel(world) + " "
                        + (after == null
                                ? "nothing follows the sentence"
                                : "the sentence is followed by " + described(after) + " (line "
                                        + line(after.node(), after.node().getStartOffset(), after.firstLine())
                                        + ")")
                        + ". Guard the sentence too (put it in a ```prose "
                        + block.info().guardWords()
                        + " block), or give the block a fallback right after it" + fallback);
    }

    /** How a guard reads: {@code the kernel has qdisc:cake}, {@code the kernel lacks qdisc:cake}, or both. */
    private static String condition(BlockInfo info) {
        List<String> parts = new ArrayList<>();
        if (info.ifFeature() != null) {
            parts.add("has " + info.ifFeature());
        }
        if (info.unlessFeature() != null) {
            parts.add("lacks " + info.unlessFeature());
        }
        return "the kernel " + String.join(" and ", parts);
    }

    /** A kernel's features as a phrase: {@code without qdisc:cake}, {@code with a and without b}. */
    private static String kernel(Map<String, Boolean> world) {
        List<String> with = new ArrayList<>();
        List<String> without = new ArrayList<>();
        world.forEach((feature, has) -> (has ? with : without).add(feature));
        List<String> parts = new ArrayList<>();
        if (!with.isEmpty()) {
            parts.add("with " + String.join(" and ", with));
        }
        if (!without.isEmpty()) {
            parts.add("without " + String.join(" or ", without));
        }
        return String.join(" and ", parts);
    }

    /** What follows, in words: {@code a paragraph}, {@code the cmd block}, ... */
    private String described(Item item) {
        Node node = item.node();
        BlockContext.Guarded guard = context.guardOf(node);
        if (node instanceof LessonBlocks.LessonBlock) {
            return guard != null ? "the " + guard.info().type() + " block" : "a " + blockType(node) + " block";
        }
        if (node instanceof Paragraph) {
            return "a paragraph";
        }
        if (node instanceof Heading) {
            return "a heading";
        }
        if (node instanceof FencedCodeBlock || node instanceof IndentedCodeBlock) {
            return "a code block";
        }
        if (node instanceof BulletList || node instanceof OrderedList) {
            return "a list";
        }
        if (node instanceof ThematicBreak) {
            return "a rule";
        }
        return "other text";
    }

    private static String blockType(Node node) {
        if (node instanceof LessonBlocks.Command) {
            return "cmd";
        }
        if (node instanceof LessonBlocks.Solution) {
            return "solution";
        }
        if (node instanceof LessonBlocks.Check) {
            return "check";
        }
        if (node instanceof LessonBlocks.QuizForm) {
            return "quiz";
        }
        if (node instanceof LessonBlocks.Hint) {
            return "hint";
        }
        if (node instanceof LessonBlocks.Invalid invalid) {
            return invalid.type;
        }
        return "prose";
    }

    private static void addFeatures(BlockContext.Guarded guard, TreeSet<String> features) {
        if (guard != null) {
            if (guard.info().ifFeature() != null) {
                features.add(guard.info().ifFeature());
            }
            if (guard.info().unlessFeature() != null) {
                features.add(guard.info().unlessFeature());
            }
        }
    }

    private static boolean shows(BlockContext.Guarded guard, Map<String, Boolean> has) {
        if (guard == null) {
            return true;
        }
        String ifFeature = guard.info().ifFeature();
        String unlessFeature = guard.info().unlessFeature();
        return (ifFeature == null || has.get(ifFeature)) && (unlessFeature == null || !has.get(unlessFeature));
    }

    /** A paragraph whose text, without trailing emphasis marks, ends in ':'. */
    private static boolean endsInColon(Node node) {
        if (!(node instanceof Paragraph)) {
            return false;
        }
        String text = node.getChars().toString().strip();
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '*' || text.charAt(end - 1) == '_')) {
            end--;
        }
        return end > 0 && text.charAt(end - 1) == ':';
    }

    /** The offset of a node's last character that is not white space. */
    private static int lastOffset(Node node) {
        BasedSequence chars = node.getChars().trimEnd();
        return Math.max(chars.getStartOffset(), chars.getEndOffset() - 1);
    }

    /**
     * The file line of an offset in a node's text: the line its markdown starts on plus the line breaks before it
     * (the markdown of a prose or hint block is parsed on its own, so its offsets count from that block's body).
     */
    private static int line(Node node, int offset, int firstLine) {
        BasedSequence base = node.getChars().getBaseSequence();
        int breaks = 0;
        for (int k = 0; k < offset && k < base.length(); k++) {
            if (base.charAt(k) == '\n') {
                breaks++;
            }
        }
        return firstLine + breaks;
    }
}
