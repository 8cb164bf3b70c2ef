def title_case(text):
    return text.capitalize()
