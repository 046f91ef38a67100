language-self = हिन्दी
    .english = Hindi
