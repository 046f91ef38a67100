language-self = English
    .english = English
