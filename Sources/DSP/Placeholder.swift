enum DSPPlaceholder {}
