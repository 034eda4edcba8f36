enum CuesPlaceholder {}
