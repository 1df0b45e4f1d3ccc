package dev.tclab.lesson.markdown;

import com.vladsch.flexmark.html.HtmlRenderer;
import com.vladsch.flexmark.parser.Parser;
import com.vladsch.flexmark.util.data.MutableDataHolder;

/** The flexmark extension for lesson fenced blocks: a post-processor that builds them and their HTML renderer. */
public final class LessonBlocksExtension implements Parser.ParserExtension, HtmlRenderer.HtmlRendererExtension {

    private LessonBlocksExtension() {}

    public static LessonBlocksExtension create() {
        return new LessonBlocksExtension();
    }

    @Override
    public void parserOptions(MutableDataHolder options) {
        // no parser options to set
    }

    @Override
    public void extend(Parser.Builder builder) {
        builder.postProcessorFactory(new LessonBlockPostProcessor.Factory());
    }

    @Override
    public void rendererOptions(MutableDataHolder options) {
        // no renderer options to set
    }

    @Override
    public void extend(HtmlRenderer.Builder builder, String rendererType) {
        builder.nodeRendererFactory(new LessonBlockRenderer.Factory());
    }
}
