enum RecipePlaceholder {}
