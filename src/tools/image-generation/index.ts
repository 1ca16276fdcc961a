/** `image_generation_call` items taken back as history (the tool itself is not served here). */
export { imageGenerationHistory } from './image-generation-history';
